import { and, eq } from "drizzle-orm";
import { DateTime } from "luxon";
import ICAL from "ical.js";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { bookingCalendarEvents, outboxJobs } from "@/db/schema";
import { caldavClient } from "@/lib/calendars/caldav";
import { bookingUid, seatUid } from "@/lib/links";
import { writeBookingToCalendar } from "@/lib/services/bookings/calendar-write";
import { rangeOf } from "@/lib/time/in-words";
import { api } from "../support/api";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique, type TestHost } from "../support/factories";
import { configure, testWorker } from "../support/jobs";
import { startRadicale, type Radicale } from "../support/radicale";
import { startSmtpServer, type SmtpSink } from "../support/smtp";

// What seats and series set off (decisions §19), end to end through the API and the outbox
// worker: a series is confirmed by one email listing every date, with an invitation of one
// VEVENT per occurrence, and a `following` cancel by one listing the cancelled dates; a seated
// start is one event in the host's calendar (a real CalDAV server, Radicale) whose attendees
// follow the seats, removed with the last one.

withTestDatabase({ isolated: true });

let smtp: SmtpSink;
let radicale: Radicale | undefined;
beforeAll(async () => {
  smtp = await startSmtpServer();
  radicale = await startRadicale();
}, 60_000);
afterAll(async () => {
  await smtp.close();
  await radicale?.close();
});

const iso = (d: Date) => d.toISOString().replace(".000Z", "Z");

function calendarPart(mail: ParsedMail): string {
  const part = mail.attachments.find((a) => a.contentType.startsWith("text/calendar") || a.contentType === "application/ics");
  expect(part, "the message carries an invitation").toBeDefined();
  return part!.content.toString("utf8");
}

/** Every VEVENT of an iCalendar text: its UID, SEQUENCE, status and start. */
function vevents(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return {
    method: calendar.getFirstPropertyValue("method"),
    events: calendar.getAllSubcomponents("vevent").map((c) => {
      const event = new ICAL.Event(c);
      return { uid: event.uid, sequence: event.sequence, status: c.getFirstPropertyValue("status"), start: event.startDate.toJSDate().toISOString() };
    }),
  };
}

/** Weekday hours 09:00–12:00 every day of the week, so any weekly series has its hours. */
async function openEveryDay(host: TestHost) {
  const weeklyRules = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: "09:00", endTime: "12:00" }));
  const res = await api.put("/me/availability", { minNoticeHours: 0, maxAdvanceDays: 60, weeklyRules, dateOverrides: [] }, { token: host.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe("a series' emails", () => {
  it("one message to the guest and one to the host, listing every date, with one VEVENT per occurrence; a following cancel, one listing the dates it took", async () => {
    await (await getDb()).delete(outboxJobs);
    configure({ smtpUrl: smtp.url });
    const host = await createHost({ timezone: "America/New_York", fullName: "Ada Host" });
    await openEveryDay(host);
    const et = await createEventType(host, { slug: "weekly", title: "Coaching", durationMinutes: 60, recurrence: { everyWeeks: 1, maxOccurrences: 8 } });
    const date = DateTime.now().setZone(host.timezone).plus({ days: 3 }).toISODate()!;
    const [first] = await getSlots(host, et.slug, date);
    const guestEmail = `${unique("grace")}@example.com`;
    const worker = await testWorker();

    const from = smtp.mails.length;
    const res = await book(host, et.slug, first!.startTime, { occurrences: 3, guestEmail, guestTimezone: "Europe/Berlin" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const occurrences = res.body.series.occurrences as { id: string; startTime: string; endTime: string }[];
    expect(occurrences).toHaveLength(3);
    await worker.runDueJobs();

    const batch = smtp.mails.slice(from);
    expect(batch.map((m) => m.envelopeTo[0]).sort()).toEqual([guestEmail, host.email].sort());
    const guestMail = batch.find((m) => m.envelopeTo[0] === guestEmail)!.mail;
    const hostMail = batch.find((m) => m.envelopeTo[0] === host.email)!.mail;
    for (const o of occurrences) {
      const [s, e] = [Date.parse(o.startTime), Date.parse(o.endTime)];
      expect(guestMail.text).toContain(rangeOf(s, e, "Europe/Berlin", undefined, "en"));
      expect(hostMail.text).toContain(rangeOf(s, e, host.timezone, undefined, "en"));
    }
    expect(guestMail.text).toContain("Dates:");
    for (const mail of [guestMail, hostMail]) {
      const ics = vevents(calendarPart(mail));
      expect(ics.method).toBe("REQUEST");
      expect(ics.events.map((v) => v.uid)).toEqual(occurrences.map((o) => bookingUid(o.id)));
      expect(ics.events.map((v) => v.start)).toEqual(occurrences.map((o) => new Date(o.startTime).toISOString()));
    }
    // The guest's .ics link holds the whole series too.
    const token = String(res.body.cancelUrl).split("/").pop();
    const link = await api.get(`/public/bookings/${token}.ics`);
    expect(link.status).toBe(200);
    expect(vevents(link.body).events.map((v) => v.uid)).toEqual(occurrences.map((o) => bookingUid(o.id)));

    // The host cancels the second occurrence and the ones after it: one message each, both dates.
    const before = smtp.mails.length;
    const cancelled = await api.post(`/me/bookings/${occurrences[1]!.id}/cancel`, { reason: "Away", scope: "following" }, { token: host.token });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    await worker.runDueJobs();
    const told = smtp.mails.slice(before);
    expect(told.map((m) => m.envelopeTo[0]).sort()).toEqual([guestEmail, host.email].sort());
    const guestCancel = told.find((m) => m.envelopeTo[0] === guestEmail)!.mail;
    for (const o of occurrences.slice(1)) expect(guestCancel.text).toContain(rangeOf(Date.parse(o.startTime), Date.parse(o.endTime), "Europe/Berlin", undefined, "en"));
    expect(guestCancel.text).not.toContain(rangeOf(Date.parse(occurrences[0]!.startTime), Date.parse(occurrences[0]!.endTime), "Europe/Berlin", undefined, "en"));
    const ics = vevents(calendarPart(guestCancel));
    expect(ics.method).toBe("CANCEL");
    expect(ics.events).toEqual(occurrences.slice(1).map((o) => ({ uid: bookingUid(o.id), sequence: 1, status: "CANCELLED", start: new Date(o.startTime).toISOString() })));
  });
});

/** A host writing to a Radicale calendar, with a seated event type (3 seats), and how to read the start's event there. */
async function seatedHostOnRadicale(server: Radicale) {
  configure({ caldavServerUrl: server.url });
  const db = await getDb();
  const host = await createHost({ timezone: "UTC" });
  const date = dateIn(5, "UTC");
  await openOnly(host, date, [{ startTime: "09:00", endTime: "17:00" }]);
  const et = await createEventType(host, { slug: unique("class"), title: "Yoga", durationMinutes: 60, seats: { max: 3, showRemaining: true } });
  const calendarName = unique("seats");
  await server.createCalendar(calendarName, calendarName);
  const made = await api.post("/me/calendar-connections/provider_c", { providerAccountId: server.username, appSpecificPassword: server.password }, { token: host.token });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const target = made.body.calendars.find((c: { name: string }) => c.name === calendarName);
  // Radicale's other calendars (of the other tests) are no write target.
  const others = made.body.calendars.filter((c: { name: string }) => c.name !== calendarName).map((c: { id: string }) => ({ id: c.id, writeTarget: false }));
  expect((await api.patch(`/me/calendar-connections/${made.body.id}`, { calendars: [...others, { id: target.id, writeTarget: true }] }, { token: host.token })).status).toBe(200);
  const client = caldavClient({ username: server.username, password: server.password, serverUrl: server.url });
  const calendarUrl = (await client.listCalendars()).find((c) => c.name === calendarName)!.externalId;
  const at = (hour: number) => DateTime.fromISO(`${date}T${String(hour).padStart(2, "0")}:00`, { zone: "UTC" }).toJSDate();
  const uidAt = (start: Date) => seatUid(`${et.id}@${start.toISOString()}`);
  /** The events in the calendar that day, by UID. */
  const eventsThere = async () => {
    const busy = await client.busy([calendarUrl], { from: at(0).getTime(), to: at(23).getTime(), timeZone: "UTC" });
    return (busy.get(calendarUrl) ?? []).map((b) => b.eventId).sort();
  };
  /** The attendees of the start's event, read from the server. */
  const attendees = async (start: Date) => {
    const rows = await db.select().from(bookingCalendarEvents).where(and(eq(bookingCalendarEvents.hostId, host.id), eq(bookingCalendarEvents.uid, uidAt(start))));
    expect(new Set(rows.map((r) => r.externalEventId)).size).toBe(1);
    const res = await fetch(rows[0]!.externalEventId, { headers: { authorization: `Basic ${Buffer.from(`${server.username}:${server.password}`).toString("base64")}` } });
    expect(res.status).toBe(200);
    const vevent = new ICAL.Component(ICAL.parse(await res.text())).getFirstSubcomponent("vevent")!;
    return vevent.getAllProperties("attendee").map((p) => String(p.getFirstValue()).replace(/^mailto:/i, "").toLowerCase()).sort();
  };
  return { db, host, et, at, uidAt, eventsThere, attendees };
}

const tokenOf = (url: string) => url.split("/").pop()!;

describe("a seated start in the host's calendar (CalDAV, against Radicale)", () => {
  it("is one event listing its seats: two seats two attendees, one cancelled one, the last cancelled no event; late jobs change nothing", async (ctx) => {
    if (!radicale) return ctx.skip();
    const { db, host, et, at, uidAt, eventsThere, attendees } = await seatedHostOnRadicale(radicale);
    const start = at(10);
    const uid = uidAt(start);
    const worker = await testWorker();

    const [ann, ben] = [`${unique("ann")}@example.com`, `${unique("ben")}@example.com`];
    const one = await book(host, et.slug, iso(start), { guestEmail: ann, guestName: "Ann" });
    const two = await book(host, et.slug, iso(start), { guestEmail: ben, guestName: "Ben" });
    expect([one.status, two.status]).toEqual([201, 201]);
    // Out of order: the second seat's write runs before the first one's.
    expect(await writeBookingToCalendar(db, { bookingId: two.body.id, hostId: host.id })).toEqual({ status: "done" });
    await worker.runDueJobs();
    expect(await eventsThere()).toEqual([uid]);
    expect(await attendees(start)).toEqual([ann, ben].sort());
    const seatRows = await db.select().from(bookingCalendarEvents).where(eq(bookingCalendarEvents.hostId, host.id));
    expect(seatRows.map((r) => r.bookingId).sort()).toEqual([one.body.id, two.body.id].sort());

    // Ann cancels: the event stays, with Ben alone.
    expect((await api.post("/public/cancel", { token: tokenOf(one.body.cancelUrl) })).status).toBe(200);
    await worker.runDueJobs();
    expect(await eventsThere()).toEqual([uid]);
    expect(await attendees(start)).toEqual([ben]);
    // A late or repeated job of either seat brings the start to the same state.
    for (const bookingId of [one.body.id, two.body.id, one.body.id]) expect(await writeBookingToCalendar(db, { bookingId, hostId: host.id })).toEqual({ status: "done" });
    expect(await attendees(start)).toEqual([ben]);

    // Ben cancels too: the start has no seat left, and no event.
    expect((await api.post("/public/cancel", { token: tokenOf(two.body.cancelUrl) })).status).toBe(200);
    await worker.runDueJobs();
    expect(await eventsThere()).toEqual([]);
    expect(await db.select().from(bookingCalendarEvents).where(eq(bookingCalendarEvents.hostId, host.id))).toEqual([]);
    expect(await writeBookingToCalendar(db, { bookingId: one.body.id, hostId: host.id })).toEqual({ status: "done" });
    expect(await eventsThere()).toEqual([]);
  });

  it("a seat moved to another start leaves its former start's event and joins the new one's", async (ctx) => {
    if (!radicale) return ctx.skip();
    const { host, et, at, uidAt, eventsThere, attendees } = await seatedHostOnRadicale(radicale);
    const worker = await testWorker();
    const [ann, ben] = [`${unique("ann")}@example.com`, `${unique("ben")}@example.com`];
    const one = await book(host, et.slug, iso(at(10)), { guestEmail: ann, guestName: "Ann" });
    const two = await book(host, et.slug, iso(at(10)), { guestEmail: ben, guestName: "Ben" });
    await worker.runDueJobs();
    expect(await attendees(at(10))).toEqual([ann, ben].sort());

    const moved = await api.post(`/me/bookings/${two.body.id}/reschedule`, { startTime: iso(at(12)) }, { token: host.token });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await worker.runDueJobs();
    expect(await eventsThere()).toEqual([uidAt(at(10)), uidAt(at(12))].sort());
    expect(await attendees(at(10))).toEqual([ann]);
    expect(await attendees(at(12))).toEqual([ben]);
    expect(one.status).toBe(201);
  });
});
