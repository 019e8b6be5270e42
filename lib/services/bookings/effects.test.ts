import { randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import { describe, expect, it, onTestFinished } from "vitest";
import type { Tx } from "@/db";
import { bookingCalendarEvents, bookingHistory, bookings, outboxJobs, type BookingRow } from "@/db/schema";
import { getConfig, setConfig, type Config } from "@/lib/config";
import { bookingEventPayload, type BookingEvent, type BookingEventPayload } from "@/lib/outbox/booking-events";
import { enqueueJobs, type NewJob } from "@/lib/outbox/enqueue";
import { webhookBody } from "@/lib/webhooks/body";
import { rollbackDatabase } from "@/tests/support/rollback";
import { bookingInput, insertBooking, insertCalendar, insertEventType, insertHost, insertTeam, insertWebhook, openOn } from "@/tests/support/rows";
import { createBooking } from "./create";
import { bookingEventEffects, loadEffectFacts, planEffects, type EffectFacts } from "./effects";

// What a booking event sets off, decided from its facts without a database: the jobs, their
// dedupe keys (what makes a fan-out run twice add nothing), their payloads and their order.

const JOB = 41;
const NOW = Date.parse("2031-03-10T09:00:00Z");
const reminder: NewJob = { kind: "reminder.email", runAfter: new Date(NOW + 3_600_000), dedupeKey: "reminder:bkg_1:0:60:guest", payload: { bookingId: "bkg_1" } };
const warning: NewJob = { kind: "email.request_expiring", runAfter: new Date(NOW + 7_200_000), dedupeKey: "request-expiry:bkg_1:0:usr_a", payload: { bookingId: "bkg_1" } };

function event(kind: BookingEvent, more: Partial<BookingEventPayload> = {}): BookingEventPayload {
  return {
    event: kind,
    hostId: "usr_a",
    hostIds: ["usr_a"],
    bookingId: "bkg_1",
    occurredAt: "2031-03-10T08:59:59.000Z",
    sequence: 0,
    data: { bookingId: "bkg_1", location: "Room 1" },
    ...more,
  };
}

function facts(more: Partial<EffectFacts> = {}): EffectFacts {
  return { calendarHosts: new Set(["usr_a"]), webhooks: [{ webhookId: "whk_1", messageId: "msg_1" }], reminders: [], warnings: [], ...more };
}

const keysOf = (jobs: NewJob[]) => jobs.map((j) => `${j.kind} ${j.dedupeKey}`);

describe("planEffects", () => {
  it.each<[string, BookingEventPayload, EffectFacts, string[]]>([
    [
      "created, personal: webhooks, the guest's email, the host's, the calendar write, then reminders and warnings",
      event("booking.created"),
      facts({ reminders: [reminder], warnings: [warning] }),
      ["webhook.deliver webhook:41:whk_1", "email.booking email:41:guest", "email.booking email:41:host", "calendar.write calendar:41", "reminder.email reminder:bkg_1:0:60:guest", "email.request_expiring request-expiry:bkg_1:0:usr_a"],
    ],
    [
      "confirmed: the same messages",
      event("booking.confirmed"),
      facts({ reminders: [reminder] }),
      ["webhook.deliver webhook:41:whk_1", "email.booking email:41:guest", "email.booking email:41:host", "calendar.write calendar:41", "reminder.email reminder:bkg_1:0:60:guest"],
    ],
    [
      "cancelled: messages and the calendar, nothing to remind",
      event("booking.cancelled"),
      facts(),
      ["webhook.deliver webhook:41:whk_1", "email.booking email:41:guest", "email.booking email:41:host", "calendar.write calendar:41"],
    ],
    [
      "no-show mark: its webhooks alone",
      event("booking.no_show_updated"),
      facts({ calendarHosts: new Set() }),
      ["webhook.deliver webhook:41:whk_1"],
    ],
    [
      "team with co-hosts: the booking's host keeps its keys, each co-host gets its own",
      event("booking.created", { hostIds: ["usr_a", "usr_b", "usr_c"] }),
      facts({ calendarHosts: new Set(["usr_a", "usr_b", "usr_c"]), webhooks: [{ webhookId: "whk_1", messageId: "msg_1" }, { webhookId: "whk_2", messageId: "msg_2" }] }),
      [
        "webhook.deliver webhook:41:whk_1",
        "webhook.deliver webhook:41:whk_2",
        "email.booking email:41:guest",
        "email.booking email:41:host",
        "email.booking email:41:host:usr_b",
        "email.booking email:41:host:usr_c",
        "calendar.write calendar:41",
        "calendar.write calendar:41:usr_b",
        "calendar.write calendar:41:usr_c",
      ],
    ],
    [
      "rescheduled to another host: the former host is told and their calendar cleared",
      event("booking.rescheduled", { hostId: "usr_b", hostIds: ["usr_b"], formerHostIds: ["usr_a"], sequence: 1 }),
      facts({ calendarHosts: new Set(["usr_a", "usr_b"]), webhooks: [] }),
      ["email.booking email:41:guest", "email.booking email:41:host", "email.booking email:41:host:usr_a", "calendar.write calendar:41", "calendar.write calendar:41:usr_a"],
    ],
    [
      "a host without calendar work gets no calendar write",
      event("booking.created", { hostIds: ["usr_a", "usr_b"] }),
      facts({ calendarHosts: new Set(["usr_b"]) }),
      ["webhook.deliver webhook:41:whk_1", "email.booking email:41:guest", "email.booking email:41:host", "email.booking email:41:host:usr_b", "calendar.write calendar:41:usr_b"],
    ],
    [
      "no webhooks: no deliveries",
      event("booking.created"),
      facts({ webhooks: [] }),
      ["email.booking email:41:guest", "email.booking email:41:host", "calendar.write calendar:41"],
    ],
    [
      "a series' first occurrence: its emails (they list every date), with its webhooks and calendar write",
      event("booking.created", { data: { bookingId: "bkg_1", series: { id: "ser_1", occurrences: [{ id: "bkg_1" }, { id: "bkg_2" }] } } }),
      facts({ reminders: [reminder] }),
      ["webhook.deliver webhook:41:whk_1", "email.booking email:41:guest", "email.booking email:41:host", "calendar.write calendar:41", "reminder.email reminder:bkg_1:0:60:guest"],
    ],
    [
      "a series' later occurrence: no email (the first one's lists it), its webhooks, calendar write and reminders still",
      event("booking.created", { bookingId: "bkg_2", data: { bookingId: "bkg_2", series: { id: "ser_1", occurrences: [{ id: "bkg_1" }, { id: "bkg_2" }] } } }),
      facts({ reminders: [reminder] }),
      ["webhook.deliver webhook:41:whk_1", "calendar.write calendar:41", "reminder.email reminder:bkg_1:0:60:guest"],
    ],
    [
      "a single booking's data with series null: its emails",
      event("booking.created", { data: { bookingId: "bkg_1", series: null } }),
      facts(),
      ["webhook.deliver webhook:41:whk_1", "email.booking email:41:guest", "email.booking email:41:host", "calendar.write calendar:41"],
    ],
    [
      "occurrences cancelled together: the first tells of them all, with its emails",
      event("booking.cancelled", { tellsOf: [{ bookingId: "bkg_1", startTime: "2031-03-10T09:00:00Z", endTime: "2031-03-10T09:30:00Z", sequence: 1 }, { bookingId: "bkg_2", startTime: "2031-03-17T09:00:00Z", endTime: "2031-03-17T09:30:00Z", sequence: 1 }] }),
      facts(),
      ["webhook.deliver webhook:41:whk_1", "email.booking email:41:guest", "email.booking email:41:host", "calendar.write calendar:41"],
    ],
    [
      "occurrences cancelled together: the others no email, their webhooks and calendar writes still",
      event("booking.cancelled", { bookingId: "bkg_2", toldWith: "bkg_1" }),
      facts(),
      ["webhook.deliver webhook:41:whk_1", "calendar.write calendar:41"],
    ],
    [
      "an event written before teams (hostId only) concerns its host",
      event("booking.created", { hostIds: undefined }),
      facts(),
      ["webhook.deliver webhook:41:whk_1", "email.booking email:41:guest", "email.booking email:41:host", "calendar.write calendar:41"],
    ],
  ])("%s", (_, given, known, keys) => {
    const plan = planEffects(given, JOB, known, NOW);
    expect(plan.status).toBe("done");
    expect(keysOf(plan.enqueue)).toEqual(keys);
  });

  it("carries the payloads each job kind expects", () => {
    const given = event("booking.created", { hostIds: ["usr_a", "usr_b"] });
    const plan = planEffects(given, JOB, facts({ calendarHosts: new Set(["usr_b"]) }), NOW);
    const shown = { ...given };
    expect(plan.enqueue).toEqual([
      { kind: "webhook.deliver", dedupeKey: "webhook:41:whk_1", payload: { webhookId: "whk_1", bookingId: "bkg_1", messageId: "msg_1", eventType: "booking.created", body: webhookBody("booking.created", given.occurredAt, given.data) } },
      { kind: "email.booking", dedupeKey: "email:41:guest", payload: { reader: "guest", bookingId: "bkg_1", eventJobId: JOB, event: shown } },
      { kind: "email.booking", dedupeKey: "email:41:host", payload: { reader: "host", hostId: "usr_a", bookingId: "bkg_1", eventJobId: JOB, event: shown } },
      { kind: "email.booking", dedupeKey: "email:41:host:usr_b", payload: { reader: "host", hostId: "usr_b", bookingId: "bkg_1", eventJobId: JOB, event: shown } },
      { kind: "calendar.write", dedupeKey: "calendar:41:usr_b", payload: { bookingId: "bkg_1", hostId: "usr_b" } },
    ]);
    // Byte for byte: the keys of each payload in the order the outbox has always stored them.
    expect(Object.keys(plan.enqueue[2]!.payload as object)).toEqual(["reader", "hostId", "bookingId", "eventJobId", "event"]);
    expect(Object.keys(plan.enqueue[0]!.payload as object)).toEqual(["webhookId", "bookingId", "messageId", "eventType", "body"]);
  });

  it("a video booking waiting for its link: only the calendar writes now, the rest a second later", () => {
    const given = event("booking.created", { hostIds: ["usr_a", "usr_b"], data: { bookingId: "bkg_1", location: "video" } });
    const plan = planEffects(given, JOB, facts({ calendarHosts: new Set(["usr_a", "usr_b"]), meetingLink: { wait: true } }), NOW);
    expect(plan).toEqual({
      status: "defer",
      until: NOW + 1_000,
      enqueue: [
        { kind: "calendar.write", dedupeKey: "calendar:41", payload: { bookingId: "bkg_1", hostId: "usr_a" } },
        { kind: "calendar.write", dedupeKey: "calendar:41:usr_b", payload: { bookingId: "bkg_1", hostId: "usr_b" } },
      ],
    });
  });

  it("a video booking once its link is known: every message shows the link", () => {
    const link = "https://meet.example/abc-defg-hij";
    const given = event("booking.created", { data: { bookingId: "bkg_1", location: "video" } });
    const plan = planEffects(given, JOB, facts({ meetingLink: { wait: false, location: link } }), NOW);
    expect(plan.status).toBe("done");
    const [delivery, guest, host, calendar] = plan.enqueue;
    expect(JSON.parse((delivery!.payload as { body: string }).body).data.location).toBe(link);
    for (const email of [guest, host]) expect((email!.payload as { event: { data: { location: string } } }).event.data.location).toBe(link);
    // The event itself (what the outbox row keeps) is left as it was.
    expect((given.data as { location: string }).location).toBe("video");
    expect(calendar!.dedupeKey).toBe("calendar:41");
  });
});

// The other half, against a database: what loadEffectFacts reads for an event (the hosts with
// calendar work, the webhooks that want it, the meeting link), and what it does to the outbox
// on the way (reminders and expiry warnings it makes stale are dropped). Each test in a
// transaction rolled back at its end (tests/support/rollback.ts).
describe("loadEffectFacts", () => {
  const { withRollback } = rollbackDatabase();
  const START = Date.parse("2031-03-10T09:00:00Z");
  const HOUR = 3_600_000;
  const MINUTE = 60_000;

  /** The event a verb would write for `row` now (bookingEventPayload), its data the booking's id and location. */
  const eventOf = (kind: BookingEvent, row: BookingRow, hostIds: string[], at: number, formerHostIds?: string[]) =>
    bookingEventPayload(kind, row, { hostIds, formerHostIds }, at, { bookingId: row.id, location: row.location });

  const jobsOf = (tx: Tx, bookingId: string) =>
    tx.select({ kind: outboxJobs.kind, status: outboxJobs.status, dedupeKey: outboxJobs.dedupeKey }).from(outboxJobs).where(sql`${outboxJobs.payload} ->> 'bookingId' = ${bookingId}`).orderBy(asc(outboxJobs.id));

  /** The configuration changed for this test only. */
  function configure(changes: Partial<Config>) {
    const before = getConfig();
    setConfig({ ...before, ...changes });
    onTestFinished(() => setConfig(before));
  }

  it("names the hosts with calendar work: a calendar to write to, or an event of the booking in one (a host it left too); none for a no-show mark", () =>
    withRollback(async (tx) => {
      const [writer, hadEvent, reader, none, left] = await Promise.all(["Wren", "Hal", "Rita", "Nan", "Lee"].map((fullName) => insertHost(tx, { fullName })));
      const { eventType } = await insertTeam(tx, [writer!, hadEvent!, reader!, none!, left!], { schedulingType: "collective" });
      const row = await insertBooking(tx, [writer!, hadEvent!, reader!, none!], eventType, START);
      await insertCalendar(tx, writer!, { writeTarget: true });
      const calendar = await insertCalendar(tx, hadEvent!); // not a write target (any more), but it holds the booking's event
      await tx.insert(bookingCalendarEvents).values({ bookingId: row.id, hostId: hadEvent!.id, calendarId: calendar, externalEventId: "evt-1", uid: "uid-1" });
      await insertCalendar(tx, reader!); // read for busy time only
      const leftCalendar = await insertCalendar(tx, left!);
      await tx.insert(bookingCalendarEvents).values({ bookingId: row.id, hostId: left!.id, calendarId: leftCalendar, externalEventId: "evt-2", uid: "uid-2" });
      const hostIds = [writer!.id, hadEvent!.id, reader!.id, none!.id];

      const created = await loadEffectFacts(tx, eventOf("booking.created", row, hostIds, START - 24 * HOUR), START - 24 * HOUR);
      expect([...created.calendarHosts].sort()).toEqual([writer!.id, hadEvent!.id].sort());
      const moved = await loadEffectFacts(tx, eventOf("booking.rescheduled", row, hostIds, START - 24 * HOUR, [left!.id]), START - 24 * HOUR);
      expect([...moved.calendarHosts].sort()).toEqual([writer!.id, hadEvent!.id, left!.id].sort());
      const noShow = await loadEffectFacts(tx, eventOf("booking.no_show_updated", row, hostIds, START + HOUR), START + HOUR);
      expect(noShow.calendarHosts.size).toBe(0);
    }));

  it("picks the webhooks that want the event: every host's active ones, in the hosts' order, each with a message id of its own", () =>
    withRollback(async (tx) => {
      const [ann, ben, stranger] = [await insertHost(tx), await insertHost(tx), await insertHost(tx)];
      const { eventType } = await insertTeam(tx, [ann!, ben!], { schedulingType: "collective" });
      const row = await insertBooking(tx, [ann!, ben!], eventType, START);
      const made = (minutes: number) => new Date(START - 30 * 24 * HOUR + minutes * MINUTE);
      const annAll = await insertWebhook(tx, ann!, { createdAt: made(2) });
      const annCancels = await insertWebhook(tx, ann!, { events: ["booking.cancelled"], createdAt: made(1) });
      await insertWebhook(tx, ann!, { isActive: false, createdAt: made(0) });
      const benAll = await insertWebhook(tx, ben!, { createdAt: made(0) });
      await insertWebhook(tx, stranger!);
      const hostIds = [ann!.id, ben!.id];

      const created = await loadEffectFacts(tx, eventOf("booking.created", row, hostIds, START - 24 * HOUR), START - 24 * HOUR);
      expect(created.webhooks.map((w) => w.webhookId)).toEqual([annAll, benAll]);
      const cancelled = await loadEffectFacts(tx, eventOf("booking.cancelled", row, hostIds, START - 24 * HOUR), START - 24 * HOUR);
      expect(cancelled.webhooks.map((w) => w.webhookId)).toEqual([annCancels, annAll, benAll]);
      const messageIds = [...created.webhooks, ...cancelled.webhooks].map((w) => w.messageId);
      expect(new Set(messageIds).size).toBe(5);
      for (const id of messageIds) expect(id).toMatch(/^msg_/);
    }));

  it("picks a webhook narrowed to event types only for a booking of one of them; null hears of all (decisions §18)", () =>
    withRollback(async (tx) => {
      const [ann, ben] = [await insertHost(tx), await insertHost(tx)];
      const own = await insertEventType(tx, ann!);
      const { eventType: teamType } = await insertTeam(tx, [ann!, ben!], { schedulingType: "collective" });
      const ownBooking = await insertBooking(tx, ann!, own, START);
      const teamBooking = await insertBooking(tx, [ann!, ben!], teamType, START + 2 * HOUR);
      const all = await insertWebhook(tx, ann!);
      const ownOnly = await insertWebhook(tx, ann!, { eventTypeIds: [own.id] });
      const teamOnly = await insertWebhook(tx, ann!, { eventTypeIds: [teamType.id, "evt_deleted_long_ago"] });
      const benOwnOnly = await insertWebhook(tx, ben!, { eventTypeIds: ["evt_bens_own"] });
      const benAll = await insertWebhook(tx, ben!);

      const ofOwn = await loadEffectFacts(tx, eventOf("booking.created", ownBooking, [ann!.id], START - 24 * HOUR), START - 24 * HOUR);
      expect(ofOwn.webhooks.map((w) => w.webhookId).sort()).toEqual([all, ownOnly].sort());
      const ofTeam = await loadEffectFacts(tx, eventOf("booking.created", teamBooking, [ann!.id, ben!.id], START - 24 * HOUR), START - 24 * HOUR);
      expect(ofTeam.webhooks.map((w) => w.webhookId).sort()).toEqual([all, teamOnly, benAll].sort());
      expect(ofTeam.webhooks.map((w) => w.webhookId)).not.toContain(benOwnOnly);
    }));

  it("makes a confirmed booking's reminders, one per reader, those whose moment has not passed; a request gets none", () =>
    withRollback(async (tx) => {
      const host = await insertHost(tx);
      const eventType = await insertEventType(tx, host, { reminders: [{ minutesBefore: 1440, to: "guest" }, { minutesBefore: 60, to: "both" }] });
      const row = await insertBooking(tx, host, eventType, START);
      const startTime = new Date(START).toISOString();
      const remind = (minutesBefore: number, reader: string) => ({
        kind: "reminder.email",
        runAfter: new Date(START - minutesBefore * MINUTE),
        dedupeKey: `reminder:${row.id}:0:${minutesBefore}:${reader === "host" ? `host:${host.id}` : "guest"}`,
        payload: { bookingId: row.id, sequence: 0, startTime, minutesBefore, reader, ...(reader === "host" ? { hostId: host.id } : {}) },
      });

      const early = await loadEffectFacts(tx, eventOf("booking.created", row, [host.id], START - 72 * HOUR), START - 72 * HOUR);
      expect(early.reminders).toEqual([remind(1440, "guest"), remind(60, "guest"), remind(60, "host")]);
      // Booked two hours ahead: the day-before reminder's moment has passed.
      const late = await loadEffectFacts(tx, eventOf("booking.created", row, [host.id], START - 2 * HOUR), START - 2 * HOUR);
      expect(late.reminders).toEqual([remind(60, "guest"), remind(60, "host")]);

      const request = await insertBooking(tx, host, eventType, START + 24 * HOUR, { status: "pending" });
      const asked = await loadEffectFacts(tx, eventOf("booking.created", request, [host.id], START), START);
      expect(asked.reminders).toEqual([]);
    }));

  it("warns each host of a request 3 hours before it expires, and drops the warnings once it is answered", () =>
    withRollback(async (tx) => {
      const [ann, ben] = [await insertHost(tx), await insertHost(tx)];
      const { eventType } = await insertTeam(tx, [ann!, ben!], { schedulingType: "collective", requiresConfirmation: true, reminders: [{ minutesBefore: 60, to: "guest" }] });
      const request = await insertBooking(tx, [ann!, ben!], eventType, START, { status: "pending" });
      const hostIds = [ann!.id, ben!.id];

      const asked = await loadEffectFacts(tx, eventOf("booking.created", request, hostIds, START - 72 * HOUR), START - 72 * HOUR);
      expect(asked.warnings).toEqual(
        hostIds.map((hostId) => ({
          kind: "email.request_expiring",
          runAfter: new Date(START - 3 * HOUR),
          dedupeKey: `request-expiry:${request.id}:0:${hostId}`,
          payload: { bookingId: request.id, sequence: 0, startTime: new Date(START).toISOString(), hostId },
        })),
      );
      // The fan-out adds them; then a host confirms the request.
      await enqueueJobs(tx, asked.warnings, START - 72 * HOUR);
      const [confirmed] = await tx.update(bookings).set({ status: "confirmed" }).where(eq(bookings.id, request.id)).returning();
      const answered = await loadEffectFacts(tx, eventOf("booking.confirmed", confirmed!, hostIds, START - 48 * HOUR), START - 48 * HOUR);
      expect(answered.warnings).toEqual([]);
      expect(await jobsOf(tx, request.id)).toEqual([]);
      // A confirmed time is what reminders are for.
      expect(answered.reminders.map((r) => r.dedupeKey)).toEqual([`reminder:${request.id}:0:60:guest`]);
    }));

  it("on a cancel drops the booking's reminders not yet sent, and nothing else", () =>
    withRollback(async (tx) => {
      const host = await insertHost(tx);
      const eventType = await insertEventType(tx, host, { reminders: [{ minutesBefore: 60, to: "both" }] });
      const row = await insertBooking(tx, host, eventType, START);
      const other = await insertBooking(tx, host, eventType, START + 24 * HOUR);
      const made = await loadEffectFacts(tx, eventOf("booking.created", row, [host.id], START - 72 * HOUR), START - 72 * HOUR);
      const otherMade = await loadEffectFacts(tx, eventOf("booking.created", other, [host.id], START - 72 * HOUR), START - 72 * HOUR);
      await enqueueJobs(tx, [...made.reminders, ...otherMade.reminders], START - 72 * HOUR);
      // The host's reminder is being sent right now.
      await tx.update(outboxJobs).set({ status: "running" }).where(eq(outboxJobs.dedupeKey, `reminder:${row.id}:0:60:host:${host.id}`));

      const [cancelled] = await tx.update(bookings).set({ status: "cancelled", cancelledBy: "guest", sequence: 1 }).where(eq(bookings.id, row.id)).returning();
      const facts = await loadEffectFacts(tx, eventOf("booking.cancelled", cancelled!, [host.id], START - 24 * HOUR), START - 24 * HOUR);
      expect(facts.reminders).toEqual([]);
      expect(await jobsOf(tx, row.id)).toEqual([{ kind: "reminder.email", status: "running", dedupeKey: `reminder:${row.id}:0:60:host:${host.id}` }]);
      expect(await jobsOf(tx, other.id)).toHaveLength(2);
    }));

  it("holds a video booking's messages while the host's calendar makes its link, then sends them with the template's link, stored for the booking", () =>
    withRollback(async (tx) => {
      configure({ videoUrlTemplate: "https://meet.example/{room}" });
      const host = await insertHost(tx);
      await insertCalendar(tx, host, { provider: "provider_a", writeTarget: true });
      await insertWebhook(tx, host);
      const eventType = await insertEventType(tx, host, { location: "video" });
      const row = await insertBooking(tx, host, eventType, START, { location: "video" });
      const occurred = START - 72 * HOUR;
      const event = eventOf("booking.created", row, [host.id], occurred);

      const waiting = await loadEffectFacts(tx, event, occurred + 1_000);
      expect(waiting).toEqual({ calendarHosts: new Set([host.id]), meetingLink: { wait: true }, webhooks: [], reminders: [], warnings: [] });
      expect((await tx.select().from(bookings).where(eq(bookings.id, row.id)))[0]!.location).toBe("video");

      // A minute on, no link came from the calendar: the template's is made, stored, and shown.
      const after = await loadEffectFacts(tx, event, occurred + 61_000);
      expect(after.meetingLink).toEqual({ wait: false, location: expect.stringMatching(/^https:\/\/meet\.example\/[0-9a-f]{32}$/) });
      const link = (after.meetingLink as { location: string }).location;
      expect((await tx.select().from(bookings).where(eq(bookings.id, row.id)))[0]!.location).toBe(link);
      expect(await tx.select({ action: bookingHistory.action, details: bookingHistory.details }).from(bookingHistory).where(eq(bookingHistory.bookingId, row.id))).toEqual([
        { action: "meeting_link", details: { location: link, source: "template" } },
      ]);
      expect(after.webhooks).toHaveLength(1);
    }));

  it("with planEffects: a booking createBooking made sets off its webhook, both emails, the calendar write and the reminders", () =>
    withRollback(async (tx) => {
      const host = await insertHost(tx);
      await openOn(tx, host, "2031-03-10");
      await insertCalendar(tx, host, { writeTarget: true });
      const webhook = await insertWebhook(tx, host);
      const eventType = await insertEventType(tx, host, { reminders: [{ minutesBefore: 60, to: "guest" }] });
      const now = START - 72 * HOUR;
      const { booking } = await createBooking(tx, { username: host.username, slug: eventType.slug, idempotencyKey: randomUUID(), input: bookingInput(START), now });

      const [job] = await tx.select().from(outboxJobs).where(eq(outboxJobs.kind, "booking.created"));
      const plan = await bookingEventEffects(tx, job!.payload as BookingEventPayload, job!.id, now);
      expect(plan.status).toBe("done");
      expect(keysOf(plan.enqueue)).toEqual([
        `webhook.deliver webhook:${job!.id}:${webhook}`,
        `email.booking email:${job!.id}:guest`,
        `email.booking email:${job!.id}:host`,
        `calendar.write calendar:${job!.id}`,
        `reminder.email reminder:${booking.id}:0:60:guest`,
      ]);
    }));

  it("with planEffects: a series createBooking made emails from its first occurrence only; every occurrence its webhook, calendar write and reminder", () =>
    withRollback(async (tx) => {
      const host = await insertHost(tx);
      for (const date of ["2031-03-10", "2031-03-17", "2031-03-24"]) await openOn(tx, host, date);
      await insertCalendar(tx, host, { writeTarget: true });
      const webhook = await insertWebhook(tx, host);
      const eventType = await insertEventType(tx, host, { reminders: [{ minutesBefore: 60, to: "guest" }], recurrence: { everyWeeks: 1, maxOccurrences: 4 } });
      const now = START - 72 * HOUR;
      const { booking } = await createBooking(tx, { username: host.username, slug: eventType.slug, idempotencyKey: randomUUID(), input: bookingInput(START, { occurrences: 3 }), now });
      const ids = booking.series!.occurrences.map((o) => o.id);
      expect(ids).toHaveLength(3);

      const events = await tx.select().from(outboxJobs).where(eq(outboxJobs.kind, "booking.created")).orderBy(asc(outboxJobs.id));
      const planned = new Map<string, string[]>();
      for (const job of events) {
        const payload = job.payload as BookingEventPayload;
        const plan = await bookingEventEffects(tx, payload, job.id, now);
        planned.set(payload.bookingId, keysOf(plan.enqueue).map((k) => k.replace(`:${job.id}`, ":<job>").replace(payload.bookingId, "<booking>")));
      }
      const rest = ["webhook.deliver webhook:<job>:" + webhook, "calendar.write calendar:<job>", "reminder.email reminder:<booking>:0:60:guest"];
      expect(planned.get(ids[0]!)).toEqual([rest[0], "email.booking email:<job>:guest", "email.booking email:<job>:host", ...rest.slice(1)]);
      for (const id of ids.slice(1)) expect(planned.get(id)).toEqual(rest);
    }));
});
