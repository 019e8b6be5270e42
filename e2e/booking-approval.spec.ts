import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DateTime } from "luxon";
import postgres from "postgres";
import { hasChromium } from "../playwright.config";
import { createScratchDatabase } from "../tests/support/scratch-database";
import { startSmtpServer, type SmtpSink } from "../tests/support/smtp";
import { createEventType, expect, openDay, test } from "./support/fixtures";
import { start } from "./support/server";

// Approval and no-shows the way a host uses them (decisions §16): a guest's request waits on the
// dashboard; the host confirms one and declines another with a reason; the guest's inbox gets
// "requested" and then "confirmed"; on a booking that has passed the host marks a no-show and
// reads the booking's history. Its own `npm start` on a scratch PostgreSQL (a past booking is
// written to the table: the API books no past) with mail to an SMTP server inside the test.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium; skipping browser tests");
test.skip(!process.env.TEST_DATABASE_URL, "TEST_DATABASE_URL is not set: this spec writes a past booking to its own PostgreSQL database");
test.use({ timezoneId: "Europe/Berlin", locale: "en-US" });

let smtp: SmtpSink;
test.beforeAll(async () => {
  smtp = await startSmtpServer();
});
test.afterAll(async () => {
  await smtp.close();
});

test("a host confirms a request and declines another, and marks a no-show on a past booking; the guest hears 'requested' then 'confirmed'", async ({ page, registerHost, signIn, shoot }) => {
  test.setTimeout(180_000);
  const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
  const server = await start({
    DATABASE_URL: scratch.url,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-approval-")),
    JWT_SECRET: randomBytes(32).toString("hex"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    SMTP_URL: smtp.url,
  });
  const sql = postgres(scratch.url, { max: 1, onnotice: () => {} });
  try {
    const host = await registerHost({ fullName: "Ada Host", timezone: "Europe/Berlin", prefix: "appr", site: server.url });
    const { username, email, token } = host;
    const day = DateTime.now().setZone("Europe/Berlin").plus({ days: 2 }).toISODate()!;
    await openDay(host, day, ["09:00", "12:00"], 30);
    const eventType = await createEventType(host, { slug: "intro", title: "Intro call", durationMinutes: 30, requiresConfirmation: true });

    const at = (time: string) => DateTime.fromISO(`${day}T${time}`, { zone: "Europe/Berlin" }).toUTC().toISO({ suppressMilliseconds: true })!;
    const request = async (time: string, guestName: string, guestEmail: string) => {
      const res = await fetch(`${server.url}/api/v1/public/${username}/intro/bookings`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
        body: JSON.stringify({ startTime: at(time), guestName, guestEmail, guestTimezone: "America/New_York" }),
      });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(201);
      expect(body.status).toBe("pending");
      return body as { id: string };
    };
    const graceEmail = `grace-${randomUUID().slice(0, 6)}@example.com`;
    const grace = await request("09:00", "Grace Guest", graceEmail);
    const linus = await request("10:00", "Linus Guest", `linus-${randomUUID().slice(0, 6)}@example.com`);

    // A booking that took place yesterday, written to the table (its host row follows by trigger).
    const pastStart = DateTime.now().minus({ days: 1 }).startOf("hour");
    const pastId = `bkg_${randomUUID()}`;
    await sql`insert into bookings (id, host_id, event_type_id, status, start_time, end_time, blocked_start, blocked_end, guest_name, guest_email, guest_timezone, cancel_token_hash)
      select ${pastId}, u.id, ${eventType.id}, 'confirmed', ${pastStart.toISO()}, ${pastStart.plus({ minutes: 30 }).toISO()}, ${pastStart.toISO()}, ${pastStart.plus({ minutes: 30 }).toISO()},
        'Pat Past', 'pat@example.com', 'UTC', ${createHash("sha256").update(randomUUID()).digest("hex")}
      from users u where u.username = ${username}`;

    const guestSubjects = () => smtp.mails.filter((m) => m.envelopeTo[0] === graceEmail).map((m) => m.mail.subject ?? "");
    await expect.poll(guestSubjects, { timeout: 15_000 }).toEqual([expect.stringMatching(/^Requested: Intro call with Ada Host on /)]);
    // The host's copy is its own job: it may arrive after the guest's.
    const hostRequest = () => smtp.mails.find((m) => m.envelopeTo[0] === email && m.mail.subject?.startsWith("Booking request: Intro call with Grace Guest"));
    await expect.poll(() => hostRequest()?.mail.text ?? "", { timeout: 15_000 }).toContain(`/dashboard/bookings?booking=${grace.id}`);

    // APP_URL defaults to http://localhost:{port}: the browser uses that name, so the session's
    // writes come from the service's own origin.
    const site = server.url.replace("127.0.0.1", "localhost");
    await signIn(host, { page, site });

    await test.step("the request's email leads to the Requests, the request marked", async () => {
      await page.goto(`${site}/dashboard/bookings?booking=${grace.id}`);
      await expect(page.getByRole("tab", { name: "Requests" })).toHaveAttribute("aria-selected", "true");
      const card = page.getByTestId(`booking-${grace.id}`);
      await expect(card.getByText("Requested", { exact: true })).toBeVisible();
      await expect(card.getByText("Waiting for your answer")).toBeVisible();
      await shoot(page, "bookings-requests");
      await card.getByRole("button", { name: "Confirm" }).click();
      await expect(card).toHaveCount(0);
    });

    await test.step("the guest hears 'requested', then 'confirmed'", async () => {
      await expect
        .poll(guestSubjects, { timeout: 15_000 })
        .toEqual([expect.stringMatching(/^Requested: Intro call with Ada Host on /), expect.stringMatching(/^Confirmed: Intro call with Ada Host on /)]);
      const confirmed = smtp.mails.filter((m) => m.envelopeTo[0] === graceEmail)[1]!.mail;
      expect(confirmed.attachments.some((a) => a.contentType.startsWith("text/calendar"))).toBe(true);
    });

    await test.step("another request is declined, with a reason", async () => {
      const card = page.getByTestId(`booking-${linus.id}`);
      await card.getByRole("button", { name: "Decline" }).click();
      const dialog = page.getByRole("dialog", { name: "Decline the request of Linus Guest?" });
      await dialog.getByLabel("Reason (optional)").fill("I am away that morning");
      await shoot(page, "bookings-decline");
      await dialog.getByRole("button", { name: "Decline request" }).click();
      await expect(card).toHaveCount(0);
      await expect(page.getByText("No requests waiting for your answer.")).toBeVisible();
    });

    await test.step("the confirmed booking's history, in plain words", async () => {
      await page.getByRole("tab", { name: "Upcoming" }).click();
      const card = page.getByTestId(`booking-${grace.id}`);
      await expect(card.getByText("Requested", { exact: true })).toHaveCount(0);
      await card.getByRole("button", { name: "History" }).click();
      const timeline = card.getByRole("list", { name: "History of the booking with Grace Guest" });
      await expect(timeline.getByRole("listitem")).toHaveCount(2);
      await expect(timeline.getByText("Booked by Grace Guest")).toBeVisible();
      await expect(timeline.getByText("Request confirmed by you")).toBeVisible();
      await expect(timeline).not.toContainText(/\d{4}-\d\d-\d\dT/);
      await shoot(page, "bookings-history");
    });

    await test.step("a past booking: mark the no-show, see it in the No-shows, and in the history", async () => {
      await page.getByRole("tab", { name: "Past" }).click();
      const card = page.getByTestId(`booking-${pastId}`);
      await card.getByRole("button", { name: "Mark no-show" }).click();
      await expect(card.getByText("No-show", { exact: true })).toBeVisible();
      await expect(card.getByRole("button", { name: "Undo no-show" })).toBeVisible();
      await card.getByRole("button", { name: "History" }).click();
      await expect(card.getByText("Marked as a no-show by you")).toBeVisible();
      await shoot(page, "bookings-no-show");
      await page.getByRole("tab", { name: "No-shows" }).click();
      await expect(page.getByTestId(`booking-${pastId}`)).toBeVisible();
      const listed = await fetch(`${server.url}/api/v1/me/bookings?noShow=true`, { headers: { authorization: `Bearer ${token}` } });
      expect((await listed.json()).data.map((b: { id: string }) => b.id)).toEqual([pastId]);
    });

    await test.step("every email about a booking leads to it: on its own view, on the page where it is", async () => {
      // The confirmed request's host email links to it, as every host message does.
      const hostConfirmed = () => smtp.mails.find((m) => m.envelopeTo[0] === email && m.mail.subject?.startsWith("Confirmed: Intro call with Grace Guest"))?.mail.text;
      await expect.poll(hostConfirmed, { timeout: 15_000 }).toContain(`See it on your dashboard: ${site}/dashboard/bookings?booking=${grace.id}`);
      // Twelve more bookings, a day apart after Grace's: Upcoming has two pages, the last one on the second.
      const later = Array.from({ length: 12 }, (_, i) => `bkg_${randomUUID()}-${i}`);
      const first = DateTime.fromISO(`${day}T10:00`, { zone: "Europe/Berlin" });
      for (const [i, id] of later.entries()) {
        const t = first.plus({ days: i + 1 });
        await sql`insert into bookings (id, host_id, event_type_id, status, start_time, end_time, blocked_start, blocked_end, guest_name, guest_email, guest_timezone, cancel_token_hash)
          select ${id}, u.id, ${eventType.id}, 'confirmed', ${t.toISO()}, ${t.plus({ minutes: 30 }).toISO()}, ${t.toISO()}, ${t.plus({ minutes: 30 }).toISO()},
            ${`Guest ${i + 1}`}, ${`guest-${i + 1}@example.com`}, 'UTC', ${createHash("sha256").update(id).digest("hex")}
          from users u where u.username = ${username}`;
      }
      await page.goto(`${site}/dashboard/bookings?booking=${later[11]}`);
      await expect(page.getByRole("tab", { name: "Upcoming" })).toHaveAttribute("aria-selected", "true");
      await expect(page.getByText("Page 2 of 2")).toBeVisible();
      const far = page.getByTestId(`booking-${later[11]}`);
      await expect(far.getByText("Intro call with Guest 12")).toBeVisible();
      await expect(far).toBeInViewport();
      await shoot(page, "bookings-linked-page-2");
      // The declined request's link opens the Cancelled, where it now is.
      await page.goto(`${site}/dashboard/bookings?booking=${linus.id}`);
      await expect(page.getByRole("tab", { name: "Cancelled" })).toHaveAttribute("aria-selected", "true");
      await expect(page.getByTestId(`booking-${linus.id}`).getByText("I am away that morning", { exact: false })).toBeVisible();
      // A link to a booking that is not the host's says so, over the upcoming bookings.
      await page.goto(`${site}/dashboard/bookings?booking=bkg_${randomUUID()}`);
      await expect(page.getByText("The booking your link points to is not among yours")).toBeVisible();
      await expect(page.getByRole("tab", { name: "Upcoming" })).toHaveAttribute("aria-selected", "true");
      await shoot(page, "bookings-link-not-yours");
    });
  } finally {
    await sql.end();
    await server.stop();
    await scratch.drop();
  }
});
