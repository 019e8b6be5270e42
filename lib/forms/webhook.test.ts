import { describe, expect, it } from "vitest";
import { checkForm } from "./resolver";
import { NEW_WEBHOOK, newWebhookRules, webhookBody, webhookChangeRules, webhookValues } from "./webhook";

describe("the webhook form's event types (decisions §18)", () => {
  const url = "https://hooks.example.com/in";

  it("sends null for all event types, the ticked ids for only these", () => {
    expect(webhookBody({ ...NEW_WEBHOOK, url: ` ${url} ` })).toEqual({ url, events: NEW_WEBHOOK.events, eventTypeIds: null });
    // Ticks left from "Only these" are not sent once "All event types" is chosen again.
    expect(webhookBody({ ...NEW_WEBHOOK, url, eventTypeIds: ["evt_a"] }).eventTypeIds).toBeNull();
    expect(webhookBody({ ...NEW_WEBHOOK, url, scope: "only", eventTypeIds: ["evt_a", "evt_b"] }).eventTypeIds).toEqual(["evt_a", "evt_b"]);
  });

  it("asks for a tick when only these is chosen with none, at the list, in the page's words", async () => {
    for (const rules of [newWebhookRules, webhookChangeRules]) {
      expect(await checkForm(rules, { ...NEW_WEBHOOK, url, scope: "only" })).toEqual({ eventTypeIds: "Tick at least one event type, or choose All event types." });
      expect(await checkForm(rules, { ...NEW_WEBHOOK, url, scope: "only", eventTypeIds: ["evt_a"] })).toEqual({});
    }
  });

  it("starts an edit from the webhook's list, leaving out ids no longer offered", () => {
    const known = new Set(["evt_a", "evt_b"]);
    expect(webhookValues({ url, events: ["booking.created"], eventTypeIds: null }, known)).toEqual({ url, events: ["booking.created"], scope: "all", eventTypeIds: [] });
    expect(webhookValues({ url, events: ["booking.created"], eventTypeIds: ["evt_b", "evt_gone"] }, known)).toMatchObject({ scope: "only", eventTypeIds: ["evt_b"] });
  });
});
