import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { start } from "./support/server";

// `npm run demo` against a running service, on PGlite and on PostgreSQL: a demo host with
// availability, its event types (a seated one and a recurring one among them) and bookings, made through the service's own API, and a
// second run that changes nothing. Issue 22: an event type with reminders, one that requires confirmation.

const run = promisify(execFile);

for (const database of ["PGlite", "PostgreSQL"] as const) {
  test(`npm run demo seeds a working demo, idempotently (${database})`, async () => {
    test.setTimeout(120_000);
    const url = process.env.TEST_DATABASE_URL;
    if (database === "PostgreSQL") {
      test.skip(!url && process.env.CI !== "true", "TEST_DATABASE_URL is not set: skipping the PostgreSQL run of npm run demo");
      expect(url, "CI=true requires TEST_DATABASE_URL").toBeTruthy();
    }
    const server = await start({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-demo-")),
      ...(database === "PostgreSQL" ? { DATABASE_URL: url!, NODE_ENV: "development" } : {}),
    });
    try {
      const first = await run("npm", ["run", "demo"], { env: { ...process.env, DEMO_URL: server.url } });
      expect(first.stdout).toContain("Demo ready.");
      expect(first.stdout).toContain(`${server.url}/login`);
      expect(first.stdout).toContain(`${server.url}/ada-demo/consultation`);
      // A one-time link of the Intro call (decisions §21), shown once at the server's APP_URL (the
      // PostgreSQL database may keep an earlier run's, unused: then the line says so).
      expect(first.stdout).toMatch(/One-time {4}(\S+\/d\/[A-Za-z0-9_-]{43} |an unused link of the Intro call exists)/);
      const again = await run("npm", ["run", "demo"], { env: { ...process.env, DEMO_URL: server.url } });
      expect(again.stdout).toContain("0 new booking(s)");
      expect(again.stdout).toContain("an unused link of the Intro call exists");

      const login = await fetch(`${server.url}/api/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "demo@example.com", password: "demo-password-123" }),
      });
      const token = (await login.json()).accessToken;
      const types = (await (await fetch(`${server.url}/api/v1/me/event-types`, { headers: { authorization: `Bearer ${token}` } })).json()).data;
      expect(types.map((t: { slug: string }) => t.slug).sort()).toEqual(["consultation", "evening-call", "group-workshop", "intro", "mentoring", "weekly-coaching", "workshop"]);
      // The evening call is offered on Ada's second schedule.
      const schedules = (await (await fetch(`${server.url}/api/v1/me/schedules`, { headers: { authorization: `Bearer ${token}` } })).json()).data;
      const evenings = schedules.find((x: { name: string }) => x.name === "Evenings");
      expect(types.find((t: { slug: string }) => t.slug === "evening-call").scheduleId).toBe(evenings.id);
      // Issue 22's settings: reminders on the consultation, confirmation (and a weekly limit) on the mentoring.
      const bySlug = new Map(types.map((t: { slug: string }) => [t.slug, t]));
      expect(bySlug.get("consultation")).toMatchObject({ reminders: [{ minutesBefore: 1440, to: "guest" }, { minutesBefore: 60, to: "both" }], requiresConfirmation: false });
      expect(bySlug.get("mentoring")).toMatchObject({ requiresConfirmation: true, limits: { perWeek: 3 }, reminders: [] });
      const upcoming = (await (await fetch(`${server.url}/api/v1/me/bookings?when=upcoming&status=confirmed`, { headers: { authorization: `Bearer ${token}` } })).json()).data;
      expect(upcoming.length).toBeGreaterThanOrEqual(3);
      // Decisions §19: two seats of one group workshop, and a 4-session weekly coaching series.
      expect(bySlug.get("group-workshop")).toMatchObject({ seats: { max: 8, showRemaining: true } });
      expect(bySlug.get("weekly-coaching")).toMatchObject({ recurrence: { everyWeeks: 1, maxOccurrences: 8 } });
      const seats = upcoming.filter((b: { eventType: { title: string } }) => b.eventType.title === "Group workshop");
      expect(seats).toHaveLength(2);
      expect(seats[0].seat).toEqual({ taken: 2, max: 8 });
      expect(seats[0].startTime).toBe(seats[1].startTime);
      const coaching = upcoming.find((b: { eventType: { title: string } }) => b.eventType.title === "Weekly coaching");
      expect(coaching.series.occurrences).toHaveLength(4);
      // Decisions §21: Berlin's public holidays, and a week away next month with Grace taking the guests.
      const asAda = { headers: { authorization: `Bearer ${token}` } };
      expect(await (await fetch(`${server.url}/api/v1/me/holidays`, asAda)).json()).toMatchObject({ country: "DE", region: "BE", workingOn: [] });
      const away = (await (await fetch(`${server.url}/api/v1/me/out-of-office`, asAda)).json()).data;
      expect(away).toEqual([expect.objectContaining({ note: "At a conference in Lisbon", redirectUsername: "grace-demo", redirectFullName: "Grace Demo" })]);
      expect(first.stdout).toContain("Time off");
      // Decisions §22: the printed Insights link counts the demo's bookings ahead.
      const insightsLink = new URL(/Insights {4}(\S+)/.exec(first.stdout)![1]!);
      expect(insightsLink.pathname).toBe("/dashboard/insights");
      const insights = await (await fetch(`${server.url}/api/v1/me/insights${insightsLink.search}`, asAda)).json();
      expect(insights.totals.bookings).toBeGreaterThanOrEqual(3);
      expect(insights.byEventType.map((e: { title: string }) => e.title)).toContain("Group workshop");
      const page = await fetch(`${server.url}/ada-demo`);
      expect(page.status).toBe(200);
      const hostHtml = await page.text();
      expect(hostHtml).toContain("Consultation");
      expect(hostHtml).toContain("Product consultant in Berlin.");
      // Each event type's description under its title.
      expect(hostHtml).toContain("A quick hello to see how we can work together.");
      // The team: both hosts, two team event types, one round-robin booking each at one time.
      expect(first.stdout).toContain(`${server.url}/team/demo-sales/book-a-demo`);
      const teamPage = await fetch(`${server.url}/team/demo-sales`);
      expect(teamPage.status).toBe(200);
      const teamHtml = await teamPage.text();
      expect(teamHtml).toContain("Panel interview");
      expect(teamHtml).toContain("Ada and Grace show you around the product");
      const asGrace = await fetch(`${server.url}/api/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "grace-demo@example.com", password: "demo-password-123" }),
      });
      const graceToken = (await asGrace.json()).accessToken;
      const graceBookings = (await (await fetch(`${server.url}/api/v1/me/bookings?when=upcoming`, { headers: { authorization: `Bearer ${graceToken}` } })).json()).data;
      const teamBookings = [...upcoming, ...graceBookings].filter((b: { team: { slug: string } | null }) => b.team?.slug === "demo-sales");
      expect(teamBookings).toHaveLength(2);
      expect(new Set(teamBookings.map((b: { hosts: { username: string }[] }) => b.hosts[0]!.username))).toEqual(new Set(["ada-demo", "grace-demo"]));
    } finally {
      await server.stop();
    }
  });
}
