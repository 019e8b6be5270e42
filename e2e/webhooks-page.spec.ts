import { randomUUID } from "node:crypto";
import { hasChromium } from "../playwright.config";
import { callApi, createEventType, createTeam, createTeamEventType, expect, test } from "./support/fixtures";
import { expectAccessible } from "./support/page-checks";

// The webhooks page's choice of event types (decisions §18): a host adds an endpoint for only
// some of their event types, their own and a team one they host (each team's under its name),
// sees the names on the endpoint, and edits it back to all of them. A type of the team they do
// not host is not offered. The page is checked with axe and photographed at 1280 and 390 px.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Europe/Berlin", locale: "en-US" });

test("an endpoint for only some event types, a team's included, then for all of them again", async ({ page, registerHost, signIn, shoot }) => {
  const ada = await registerHost({ fullName: "Ada Lovelace", timezone: "Europe/Berlin" });
  const grace = await registerHost({ fullName: "Grace Hopper", timezone: "Europe/Berlin" });
  const intro = await createEventType(ada, { slug: `intro-${randomUUID().slice(0, 6)}`, title: "Intro call", durationMinutes: 30 });
  const team = await createTeam(grace, { slug: `sales-${randomUUID().slice(0, 6)}`, name: "Sales" }, [ada]);
  const demo = await createTeamEventType(grace, team.id, { slug: "demo", title: "Product demo", durationMinutes: 30, schedulingType: "round_robin" });
  const graceId = (await callApi(grace.site, "GET", "/me", { token: grace.token })).body.id as string;
  await createTeamEventType(grace, team.id, { slug: "graces", title: "Grace's office hours", durationMinutes: 30, schedulingType: "round_robin", hostIds: [graceId] });
  await signIn(ada, { page });
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();

  await test.step("Ada ticks her intro call and the team's demo", async () => {
    await page.getByLabel("Endpoint URL").fill("https://hooks.example.com/sales");
    await expect(page.getByRole("radio", { name: /All event types/ })).toBeChecked();
    await page.getByRole("radio", { name: /Only these/ }).check();
    const choices = page.getByRole("group", { name: "Event types" });
    await expect(choices.getByRole("group", { name: "Your event types" }).getByRole("checkbox", { name: "Intro call" })).toBeVisible();
    await expect(choices.getByRole("group", { name: "Sales (team)" }).getByRole("checkbox", { name: "Product demo" })).toBeVisible();
    await expect(choices.getByText("Grace's office hours")).toHaveCount(0);
    // None ticked: said at the list, nothing sent.
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByText("Tick at least one event type, or choose All event types.")).toBeVisible();
    await choices.getByRole("checkbox", { name: "Intro call" }).check();
    await choices.getByRole("checkbox", { name: "Product demo" }).check();
    await expect(page.getByText("Tick at least one event type")).toHaveCount(0);
    await shoot(page, "webhooks-event-types");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByText("Copy the signing secret now")).toBeVisible();
  });

  const card = page.getByRole("listitem").filter({ hasText: "https://hooks.example.com/sales" });
  await test.step("the endpoint names what it hears of", async () => {
    await expect(card.getByText("For bookings of: Intro call, Product demo · Sales (team)")).toBeVisible();
    const [hook] = (await callApi(ada.site, "GET", "/me/webhooks", { token: ada.token })).body.data;
    expect(hook.eventTypeIds.sort()).toEqual([intro.id, demo.id].sort());
    await expectAccessible(page);
  });

  await test.step("Ada edits it back to all event types", async () => {
    await card.getByRole("button", { name: "Edit" }).click();
    const edit = page.getByRole("form", { name: "Edit https://hooks.example.com/sales" });
    await expect(edit.getByRole("radio", { name: /Only these/ })).toBeChecked();
    await expect(edit.getByRole("checkbox", { name: "Intro call" })).toBeChecked();
    await shoot(page, "webhooks-edit");
    await edit.getByRole("radio", { name: /All event types/ }).check();
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(edit).toHaveCount(0);
    await expect(card.getByText("For bookings of: All event types")).toBeVisible();
    const [hook] = (await callApi(ada.site, "GET", "/me/webhooks", { token: ada.token })).body.data;
    expect(hook.eventTypeIds).toBeNull();
  });
});
