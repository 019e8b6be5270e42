import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { calendarConnections, calendars } from "@/db/schema";
import { caldavClient } from "@/lib/calendars/caldav";
import { bookingUid } from "@/lib/links";
import { api } from "../support/api";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { configure, testWorker } from "../support/jobs";
import { startRadicale, type Radicale } from "../support/radicale";

// Apple iCloud (provider_c) through the real API against a real CalDAV server (Radicale): the
// login checked before anything is stored, busy VEVENTs (one recurring) leaving the slot list,
// a booking written as an event that a reschedule moves and a cancel removes, and an outage that
// keeps the last known busy time in force.

withTestDatabase({ isolated: true });

let radicale: Radicale | undefined;
beforeAll(async () => {
  radicale = await startRadicale();
}, 60_000);
afterAll(async () => {
  await radicale?.close();
});

const iso = (d: Date) => d.toISOString().replace(".000Z", "Z");
const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");

function vevent(uid: string, start: Date, end: Date, extra = "") {
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//test//EN",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    `DTSTAMP:${stamp(new Date())}`,
    `DTSTART:${stamp(start)}`,
    `DTEND:${stamp(end)}`,
    "SUMMARY:Busy",
    ...(extra ? [extra] : []),
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

async function connectionsOf(host: TestHost) {
  const res = await api.get("/me/calendar-connections", { token: host.token });
  expect(res.status).toBe(200);
  return res.body.data as any[];
}

describe("Apple iCloud calendar (CalDAV, against Radicale)", () => {
  it("checks the login before storing anything, then busy events (one recurring) leave the slot list", async (ctx) => {
    // startRadicale() fails under CI=true when Radicale is missing; on a laptop it skips.
    if (!radicale) return ctx.skip();
    const server = radicale;
    configure({ caldavServerUrl: server.url });
    const host = await createHost({ timezone: "UTC" });
    const date = dateIn(4, "UTC");
    await openOnly(host, date, [{ startTime: "09:00", endTime: "17:00" }]);
    const eventType = await createEventType(host, { durationMinutes: 60 });
    const at = (hour: number) => DateTime.fromISO(`${date}T${String(hour).padStart(2, "0")}:00`, { zone: "UTC" }).toJSDate();

    const calendarName = `work-${Date.now()}`;
    await server.createCalendar(calendarName, "Work");
    await server.putEvent(calendarName, "plain.ics", vevent("plain-1", at(12), at(13)));
    // Daily at 15:00 for three days, starting the day before: its second occurrence is on `date`.
    const dayBefore = new Date(at(15).getTime() - 86_400_000);
    await server.putEvent(calendarName, "daily.ics", vevent("daily-1", dayBefore, new Date(dayBefore.getTime() + 3_600_000), "RRULE:FREQ=DAILY;COUNT=3"));
    await server.putEvent(calendarName, "free.ics", vevent("free-1", at(10), at(11), "TRANSP:TRANSPARENT"));

    const wrong = await api.post("/me/calendar-connections/provider_c", { providerAccountId: server.username, appSpecificPassword: "wrong-password" }, { token: host.token });
    expect(wrong.status, JSON.stringify(wrong.body)).toBe(400);
    expect(wrong.body.details.issues[0].path).toBe("appSpecificPassword");
    expect(await connectionsOf(host)).toEqual([]);
    expect(await (await getDb()).select().from(calendarConnections).where(eq(calendarConnections.userId, host.id))).toEqual([]);

    const made = await api.post("/me/calendar-connections/provider_c", { providerAccountId: server.username, appSpecificPassword: server.password }, { token: host.token });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ provider: "provider_c", email: server.username.toLowerCase(), status: "connected", lastError: null });
    const work = made.body.calendars.find((c: any) => c.name === "Work");
    expect(work).toMatchObject({ checkConflicts: true });

    const starts = (await getSlots(host, eventType.slug, date)).map((s) => s.startTime);
    expect(starts).not.toContain(iso(at(12)));
    expect(starts).not.toContain(iso(at(15)));
    expect(starts).toContain(iso(at(10))); // transparent: free
    expect(starts).toContain(iso(at(13)));
  });

  it("a recurring series edited on the server (one occurrence moved, one deleted) shows in the slots after one incremental sync", async (ctx) => {
    if (!radicale) return ctx.skip();
    const server = radicale;
    configure({ caldavServerUrl: server.url });
    const host = await createHost({ timezone: "UTC" });
    const date = dateIn(4, "UTC");
    await openOnly(host, date, [{ startTime: "09:00", endTime: "17:00" }]);
    const eventType = await createEventType(host, { durationMinutes: 60 });
    const at = (hour: number) => DateTime.fromISO(`${date}T${String(hour).padStart(2, "0")}:00`, { zone: "UTC" }).toJSDate();
    const DAY = 86_400_000;
    const calendarName = `series-${Date.now()}`;
    await server.createCalendar(calendarName, "Series");
    // Daily 10:00 for three days from `date`; a second daily series at 14:00 likewise.
    const series = (uid: string, hour: number, ...extra: string[]) => vevent(uid, at(hour), new Date(at(hour).getTime() + 3_600_000), ["RRULE:FREQ=DAILY;COUNT=3", ...extra].join("\r\n"));
    await server.putEvent(calendarName, "moved.ics", series("moved-1", 10));
    await server.putEvent(calendarName, "deleted.ics", series("deleted-1", 14));
    const made = await api.post("/me/calendar-connections/provider_c", { providerAccountId: server.username, appSpecificPassword: server.password }, { token: host.token });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    let starts = (await getSlots(host, eventType.slug, date)).map((s) => s.startTime);
    expect(starts).not.toContain(iso(at(10)));
    expect(starts).not.toContain(iso(at(14)));

    // On the server: the first 10:00 occurrence moves to 12:00 (RECURRENCE-ID), the first 14:00 one is deleted (EXDATE).
    const moved = series("moved-1", 10).replace(
      "END:VCALENDAR",
      ["BEGIN:VEVENT", "UID:moved-1", `DTSTAMP:${stamp(new Date())}`, `RECURRENCE-ID:${stamp(at(10))}`, `DTSTART:${stamp(at(12))}`, `DTEND:${stamp(at(13))}`, "END:VEVENT", "END:VCALENDAR"].join("\r\n"),
    );
    await server.putEvent(calendarName, "moved.ics", moved);
    await server.putEvent(calendarName, "deleted.ics", series("deleted-1", 14, `EXDATE:${stamp(at(14))}`));
    const synced = await api.post(`/me/calendar-connections/${made.body.id}/sync`, undefined, { token: host.token });
    expect(synced.body.status).toBe("connected");
    starts = (await getSlots(host, eventType.slug, date)).map((s) => s.startTime);
    expect(starts).toContain(iso(at(10)));
    expect(starts).not.toContain(iso(at(12)));
    expect(starts).toContain(iso(at(14)));
    // The next day's occurrences still block.
    const next = (await getSlots(host, eventType.slug, dateIn(5, "UTC"))).map((s) => s.startTime);
    expect(next).not.toContain(iso(new Date(at(10).getTime() + DAY)));

    // It was read incrementally: each calendar keeps its sync-collection token.
    const stored = await (await getDb()).select().from(calendars).where(eq(calendars.connectionId, made.body.id));
    expect(stored.every((c) => c.syncState?.includes('"mode":"sync"'))).toBe(true);

    // The Radicale account is shared by this file's tests: take the series away again.
    const gone = await fetch(server.calendarUrl(calendarName), { method: "DELETE", headers: { authorization: `Basic ${Buffer.from(`${server.username}:${server.password}`).toString("base64")}` } });
    expect(gone.ok).toBe(true);
  });

  it("writes a booking as an event, moves it on reschedule, removes it on cancel; an outage keeps the last busy data", async (ctx) => {
    if (!radicale) return ctx.skip();
    const server = radicale;
    configure({ caldavServerUrl: server.url });
    const host = await createHost({ timezone: "UTC" });
    const date = dateIn(5, "UTC");
    await openOnly(host, date, [{ startTime: "09:00", endTime: "17:00" }]);
    const eventType = await createEventType(host, { durationMinutes: 60, slotIntervalMinutes: 30 });
    const at = (hour: number) => DateTime.fromISO(`${date}T${String(hour).padStart(2, "0")}:00`, { zone: "UTC" }).toJSDate();
    const calendarName = `book-${Date.now()}`;
    await server.createCalendar(calendarName, "Bookings");
    await server.putEvent(calendarName, "busy.ics", vevent("busy-2", at(16), at(17)));

    const made = await api.post("/me/calendar-connections/provider_c", { providerAccountId: server.username, appSpecificPassword: server.password }, { token: host.token });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const target = made.body.calendars.find((c: any) => c.name === "Bookings");
    const chosen = await api.patch(`/me/calendar-connections/${made.body.id}`, { calendars: [{ id: target.id, writeTarget: true }] }, { token: host.token });
    expect(chosen.status).toBe(200);

    const client = caldavClient({ username: server.username, password: server.password, serverUrl: server.url });
    const calendarUrl = (await client.listCalendars()).find((c) => c.name === "Bookings")!.externalId;
    const eventsOfBooking = async (bookingId: string) => {
      const busy = await client.busy([calendarUrl], { from: at(0).getTime(), to: at(23).getTime(), timeZone: "UTC" });
      return (busy.get(calendarUrl) ?? []).filter((b) => b.eventId === bookingUid(bookingId)).map((b) => [b.start, b.end]);
    };
    const worker = await testWorker();

    const booking = await book(host, eventType.slug, iso(at(10)));
    expect(booking.status, JSON.stringify(booking.body)).toBe(201);
    await worker.runDueJobs();
    const halfPast10 = new Date(at(10).getTime() + 30 * 60_000);
    expect(await eventsOfBooking(booking.body.id)).toEqual([[at(10).getTime(), at(11).getTime()]]);

    // Our own event is not read back as busy time: the booking alone blocks its hour, so moving
    // it by half an hour (overlapping where it was) works.
    const synced = await api.post(`/me/calendar-connections/${made.body.id}/sync`, undefined, { token: host.token });
    expect(synced.body.status).toBe("connected");
    const moved = await api.post(`/me/bookings/${booking.body.id}/reschedule`, { startTime: iso(halfPast10) }, { token: host.token });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await worker.runDueJobs();
    expect(await eventsOfBooking(booking.body.id)).toEqual([[halfPast10.getTime(), halfPast10.getTime() + 3_600_000]]);

    const cancelled = await api.post(`/me/bookings/${booking.body.id}/cancel`, { reason: "Ill" }, { token: host.token });
    expect(cancelled.status).toBe(200);
    await worker.runDueJobs();
    expect(await eventsOfBooking(booking.body.id)).toEqual([]);

    await server.stop();
    try {
      const failed = await api.post(`/me/calendar-connections/${made.body.id}/sync`, undefined, { token: host.token });
      expect(failed.body).toMatchObject({ status: "error", lastSyncedAt: synced.body.lastSyncedAt, lastError: expect.any(String) });
      expect((await getSlots(host, eventType.slug, date)).map((s) => s.startTime)).not.toContain(iso(at(16)));
    } finally {
      await server.start();
    }
    const back = await api.post(`/me/calendar-connections/${made.body.id}/sync`, undefined, { token: host.token });
    expect(back.body.status).toBe("connected");
  });
});
