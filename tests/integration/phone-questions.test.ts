import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost } from "../support/factories";

withTestDatabase();

/** A host, an event type with a text question and a phone question, and one open morning. */
async function setUp(phoneRequired = true) {
  const host = await createHost({ timezone: "Europe/Berlin" });
  const et = await createEventType(host, {
    customQuestions: [
      { id: "topic", label: "Topic" },
      { id: "phone", label: "Your phone", type: "phone", required: phoneRequired },
    ],
  });
  const date = dateIn(8, host.timezone);
  await openOnly(host, date);
  const slots = await getSlots(host, et.slug, date);
  return { host, et, slots };
}

describe("phone questions on event types", () => {
  it("are created, shown on the public page and in the OpenAPI document; text stays the default", async () => {
    const { host, et } = await setUp();
    expect(et.customQuestions).toEqual([
      { id: "topic", label: "Topic", required: false, type: "text" },
      { id: "phone", label: "Your phone", required: true, type: "phone" },
    ]);
    const page = await api.get(`/public/${host.username}/${et.slug}`);
    expect(page.body.eventType.customQuestions.map((q: { type: string }) => q.type)).toEqual(["text", "phone"]);

    const changed = await api.patch(`/me/event-types/${et.id}`, { customQuestions: [{ id: "topic", label: "Topic", type: "phone" }] }, { token: host.token });
    expect(changed.body.customQuestions).toEqual([{ id: "topic", label: "Topic", required: false, type: "phone" }]);

    const bad = await api.post("/me/event-types", { slug: "x-date", title: "x", durationMinutes: 30, customQuestions: [{ id: "e", label: "E", type: "date" }] }, { token: host.token });
    expect(bad.status).toBe(400);
    expect(bad.body.details.issues).toEqual([expect.objectContaining({ path: "customQuestions.0.type" })]);

    const doc = (await api.get("/openapi.json")).body;
    const question = JSON.stringify(doc.components.schemas.Question);
    expect(question).toContain('"enum":["text","long_text","email","number","phone","single_choice","checkboxes"]');
    expect(question).toContain("phone: a phone number, stored in E.164");
  });
});

describe("phone answers at booking time", () => {
  it("are normalised to E.164; text answers are kept as given", async () => {
    const { host, et, slots } = await setUp();
    const res = await book(host, et.slug, slots[0]!.startTime, { customAnswers: { topic: "  As typed  ", phone: "+49 (30) 1234-5678" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [listed] = (await api.get("/me/bookings", { token: host.token })).body.data;
    expect(listed.customAnswers).toEqual({ topic: "  As typed  ", phone: "+493012345678" });
  });

  it.each([["not a number"], ["030 1234567"], ["+1 200 555 0100"], ["+49"], ["12345"]])("refuse %j with 400 at customAnswers.phone", async (answer) => {
    const { host, et, slots } = await setUp();
    const res = await book(host, et.slug, slots[0]!.startTime, { customAnswers: { phone: answer } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("validation_error");
    expect(res.body.details.issues).toEqual([{ path: "customAnswers.phone", message: expect.stringContaining("international format") }]);
  });

  it("an optional phone question may be left out or empty; a required one may not", async () => {
    const optional = await setUp(false);
    expect((await book(optional.host, optional.et.slug, optional.slots[0]!.startTime, { customAnswers: {} })).status).toBe(201);
    expect((await book(optional.host, optional.et.slug, optional.slots[1]!.startTime, { customAnswers: { phone: "" } })).status).toBe(201);
    const required = await setUp(true);
    const res = await book(required.host, required.et.slug, required.slots[0]!.startTime, { customAnswers: { phone: "  " } });
    expect(res.status).toBe(400);
    expect(res.body.details.issues).toEqual([{ path: "customAnswers.phone", message: '"Your phone" needs an answer' }]);
  });
});
