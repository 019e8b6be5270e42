import { createHash, randomBytes, randomUUID } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite, openPostgres, type Database } from "@/db/client";
import { hashPassword } from "@/lib/auth/password";
import { sealCredentials } from "@/lib/calendars";
import { seal } from "@/lib/secret-box";
import { setDatabase } from "@/lib/store/database";
import { WEBHOOK_SECRET_PURPOSE } from "@/lib/webhooks/signing";
import { api } from "../support/api";
import { configure, testWorker } from "../support/jobs";
import { createScratchDatabase } from "../support/scratch-database";
import { startReceiver, type Receiver } from "../support/webhook-receiver";

// A database made by the first release, filled the way that release wrote its rows, migrated to
// today's schema: everything a host and a guest had must still read and work.
//
// The first release's schema is migrations 0000 and 0001 (commit e1ec156, 2026-11-22: the first
// schema, its tables and the hand-written EXCLUDE constraint that Drizzle cannot express, added
// together); every later migration is an upgrade. Its rows are written here in SQL of that
// schema, not through today's code, which knows columns that did not exist yet.

const migrations = path.join(process.cwd(), "db", "migrations");
const FIRST_RELEASE = ["0000_init", "0001_booking_no_overlap"];

/** A migrations folder holding the first release's migrations only. */
function firstReleaseFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), "first-release-"));
  mkdirSync(path.join(folder, "meta"));
  const journal = JSON.parse(readFileSync(path.join(migrations, "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };
  const entries = journal.entries.filter((e) => FIRST_RELEASE.includes(e.tag));
  expect(entries.map((e) => e.tag)).toEqual(FIRST_RELEASE);
  writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
  for (const tag of FIRST_RELEASE) copyFileSync(path.join(migrations, `${tag}.sql`), path.join(folder, `${tag}.sql`));
  return folder;
}

const ZONE = "Europe/Berlin";
const day = (offset: number) => DateTime.now().setZone(ZONE).startOf("day").plus({ days: offset });
const at = (offset: number, hour: number, minute = 0) => day(offset).set({ hour, minute });
const iso = (t: DateTime) => t.toUTC().toISO({ suppressMilliseconds: true })!;
const sha256 = (token: string) => createHash("sha256").update(token).digest("hex");

const host = { id: "usr_first1", email: "first@example.com", username: "firstrelease", password: "first-release-pw" };
const eventTypeId = "evt_first1";
const futureToken = randomBytes(32).toString("base64url");
const webhookSecret = `whsec_${randomBytes(32).toString("base64")}`;

describe("upgrade from the first release", () => {
  let database: Database;
  let drop: (() => Promise<void>) | undefined;
  let receiver: Receiver;
  let token: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    receiver.secrets = [webhookSecret];
    if (process.env.TEST_DB === "postgres") {
      const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
      drop = scratch.drop;
      database = await openPostgres(scratch.url, { max: 4 });
    } else {
      database = await openPglite(undefined);
    }
    await database.migrate({ migrationsFolder: firstReleaseFolder() });
    const run = async (text: string, params: unknown[]) => {
      const client = (database.db as unknown as { $client: { unsafe?: (t: string, p: unknown[]) => Promise<unknown>; query?: (t: string, p: unknown[]) => Promise<unknown> } }).$client;
      await (client.unsafe ? client.unsafe(text, params) : client.query!(text, params));
    };

    // The first release's rows: a host, weekly hours 09:00–17:00 every day and a closed day, an
    // event type with a question, bookings past, future and cancelled, a webhook, a CalDAV
    // connection with a calendar that checks conflicts and a busy time on it.
    await run(
      `insert into users (id, email, password_hash, full_name, username, timezone, min_notice_hours, max_advance_days)
       values ($1, $2, $3, 'First Host', $4, $5, 0, 60)`,
      [host.id, host.email, await hashPassword(host.password), host.username, ZONE],
    );
    for (let dow = 0; dow < 7; dow++) await run(`insert into availability_rules (user_id, day_of_week, start_minute, end_minute) values ($1, $2, 540, 1020)`, [host.id, dow]);
    await run(`insert into availability_overrides (user_id, date, available, intervals) values ($1, $2::date, false, '[]'::jsonb)`, [host.id, day(5).toISODate()]);
    await run(
      `insert into event_types (id, user_id, slug, title, description, location, duration_minutes, color, custom_questions)
       values ($1, $2, 'intro', 'Intro call', 'Half an hour', 'Phone', 30, '#16a34a', $3::jsonb)`,
      [eventTypeId, host.id, JSON.stringify([{ id: "topic", label: "Topic", required: true, type: "text" }])],
    );
    const booking = (id: string, start: DateTime, status: string, tokenHash: string, extra: { cancelledBy?: string } = {}) =>
      run(
        `insert into bookings (id, host_id, event_type_id, status, start_time, end_time, blocked_start, blocked_end, guest_name, guest_email,
           guest_timezone, location, custom_answers, cancel_token_hash, cancelled_by, cancelled_at, created_at)
         values ($1, $2, $3, $4, $5::timestamptz, $6::timestamptz, $5::timestamptz, $6::timestamptz, 'Grace Guest', 'grace@example.com',
           'America/New_York', 'Phone', '{"topic":"Roadmap"}'::jsonb, $7, $8::text, case when $8::text is null then null else now() end, $9::timestamptz)`,
        [id, host.id, eventTypeId, status, iso(start), iso(start.plus({ minutes: 30 })), tokenHash, extra.cancelledBy ?? null, iso(at(-20, 8))],
      );
    await booking("bkg_past1", at(-10, 11), "confirmed", sha256(randomBytes(16).toString("hex")));
    await booking("bkg_future1", at(3, 10), "confirmed", sha256(futureToken));
    await booking("bkg_cancel1", at(3, 11), "cancelled", sha256(randomBytes(16).toString("hex")), { cancelledBy: "guest" });
    await run(`insert into webhooks (id, user_id, url, events, secret_encrypted) values ('whk_first1', $1, $2, array['booking.created','booking.cancelled'], $3)`, [
      host.id,
      receiver.url,
      seal(webhookSecret, WEBHOOK_SECRET_PURPOSE),
    ]);
    await run(
      `insert into calendar_connections (id, user_id, provider, email, credentials_encrypted, last_synced_at)
       values ('cal_first1', $1, 'provider_c', 'first@icloud.example', $2, now())`,
      [host.id, sealCredentials({ username: "first@icloud.example", password: "app-specific", serverUrl: "http://127.0.0.1:9/dav/" })],
    );
    await run(`insert into calendars (id, connection_id, user_id, external_id, name, check_conflicts) values ('calc_first1', 'cal_first1', $1, '/dav/home/', 'Home', true)`, [host.id]);
    await run(`insert into busy_intervals (calendar_id, user_id, start_time, end_time) values ('calc_first1', $1, $2::timestamptz, $3::timestamptz)`, [
      host.id,
      iso(at(3, 14)),
      iso(at(3, 15)),
    ]);

    // The upgrade: today's build starting on that database.
    await database.migrate();
    setDatabase(database);
  });

  afterAll(async () => {
    setDatabase(undefined);
    await database?.close();
    await drop?.();
    await receiver?.close();
  });

  it("the host logs in and sees their profile, hours, closed day and event type", async () => {
    const login = await api.post("/auth/login", { email: host.email, password: host.password });
    expect(login.status).toBe(200);
    token = login.body.accessToken;

    const me = await api.get("/me", { token });
    expect(me.body).toMatchObject({ id: host.id, email: host.email, username: host.username, fullName: "First Host", timezone: ZONE });
    const availability = await api.get("/me/availability", { token });
    expect(availability.status).toBe(200);
    expect(availability.body).toMatchObject({ timezone: ZONE, minNoticeHours: 0, maxAdvanceDays: 60 });
    expect(availability.body.weeklyRules).toHaveLength(7);
    expect(availability.body.weeklyRules[0]).toEqual({ dayOfWeek: 0, startTime: "09:00", endTime: "17:00" });
    expect(availability.body.dateOverrides).toEqual([{ date: day(5).toISODate(), available: false }]);

    const types = await api.get("/me/event-types", { token });
    expect(types.status).toBe(200);
    expect(types.body.data).toEqual([
      expect.objectContaining({
        id: eventTypeId,
        slug: "intro",
        title: "Intro call",
        durationMinutes: 30,
        location: "Phone",
        color: "#16a34a",
        isActive: true,
        customQuestions: [expect.objectContaining({ id: "topic", label: "Topic", required: true, type: "text" })],
      }),
    ]);
    const page = await api.get(`/public/${host.username}/intro`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ host: { fullName: "First Host", timezone: ZONE }, eventType: { slug: "intro", title: "Intro call", durationMinutes: 30 } });
  });

  it("the host's bookings list, past and upcoming, with their answers and history", async () => {
    const upcoming = await api.get("/me/bookings?when=upcoming", { token });
    expect(upcoming.status).toBe(200);
    expect(upcoming.body.data.map((b: { id: string; status: string }) => [b.id, b.status])).toEqual([
      ["bkg_future1", "confirmed"],
      ["bkg_cancel1", "cancelled"],
    ]);
    // The totals come from the counters the upgrade filled from the bookings it found (migration 0020).
    expect(upcoming.body.pagination.total).toBe(2);
    expect((await api.get("/me/bookings", { token })).body.pagination.total).toBe(3);
    expect((await api.get("/me/bookings?status=cancelled", { token })).body.pagination.total).toBe(1);
    const past = await api.get("/me/bookings?when=past", { token });
    expect(past.body.pagination.total).toBe(1);
    expect(past.body.data).toEqual([
      expect.objectContaining({
        id: "bkg_past1",
        status: "confirmed",
        startTime: iso(at(-10, 11)),
        guestName: "Grace Guest",
        guestEmail: "grace@example.com",
        guestTimezone: "America/New_York",
        customAnswers: { topic: "Roadmap" },
        eventType: { id: eventTypeId, title: "Intro call" },
        hosts: [expect.objectContaining({ userId: host.id, username: host.username })],
      }),
    ]);
    const history = await api.get("/me/bookings/bkg_cancel1/history", { token });
    expect(history.status).toBe(200);
    expect(history.body.data.map((h: { action: string }) => h.action)).toEqual(["created", "cancelled"]);
  });

  it("slots compute around the old bookings, the calendar's busy time and the closed day", async () => {
    const date = day(3).toISODate()!;
    const slots = await api.get(`/public/${host.username}/intro/slots?from=${date}&to=${date}&timezone=${ZONE}`);
    expect(slots.status).toBe(200);
    const starts = (slots.body.slots as { startTime: string }[]).map((s) => s.startTime);
    const expected: string[] = [];
    for (let t = at(3, 9); t < at(3, 17); t = t.plus({ minutes: 30 })) {
      // 10:00 is booked; 11:00 was booked and cancelled (free again); 14:00–15:00 is busy in the calendar.
      if (t.hour === 10 && t.minute === 0) continue;
      if (t.hour === 14) continue;
      expected.push(iso(t));
    }
    expect(starts).toEqual(expected);
    const closed = day(5).toISODate()!;
    const none = await api.get(`/public/${host.username}/intro/slots?from=${closed}&to=${closed}&timezone=${ZONE}`);
    expect(none.body.slots).toEqual([]);
  });

  it("the calendar connection and the webhook read, and the webhook's sealed secret still signs", async () => {
    configure({ webhooksAllowPrivate: true });
    const connections = await api.get("/me/calendar-connections", { token });
    expect(connections.status).toBe(200);
    expect(connections.body.data).toEqual([
      expect.objectContaining({
        id: "cal_first1",
        provider: "provider_c",
        email: "first@icloud.example",
        calendars: [expect.objectContaining({ id: "calc_first1", name: "Home", checkConflicts: true, writeTarget: false })],
      }),
    ]);
    const hooks = await api.get("/me/webhooks", { token });
    expect(hooks.body.data).toEqual([expect.objectContaining({ id: "whk_first1", url: receiver.url, events: ["booking.created", "booking.cancelled"] })]);
    expect((await api.post("/me/webhooks/whk_first1/test", undefined, { token })).status).toBe(202);
    await (await testWorker()).runDueJobs();
    expect(receiver.received.map((r) => [r.body.type, r.verifiedBy])).toEqual([["webhook.test", [0]]]);
  });

  it("the guest's old cancel link still works, and a new booking takes the freed time", async () => {
    const cancelled = await api.post("/public/cancel", { token: futureToken, reason: "Plans changed" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: "bkg_future1", status: "cancelled" });
    const booked = await api.post(
      `/public/${host.username}/intro/bookings`,
      { startTime: iso(at(3, 10)), guestName: "New Guest", guestEmail: "new@example.com", guestTimezone: ZONE, customAnswers: { topic: "Upgrade" } },
      { headers: { "idempotency-key": randomUUID() } },
    );
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const again = await api.post(
      `/public/${host.username}/intro/bookings`,
      { startTime: iso(at(3, 10)), guestName: "Late Guest", guestEmail: "late@example.com", guestTimezone: ZONE, customAnswers: { topic: "Upgrade" } },
      { headers: { "idempotency-key": randomUUID() } },
    );
    expect(again.status).toBe(409);
  });
});
