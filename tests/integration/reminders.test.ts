import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { bookings, calls, outboxJobs } from "@/db/schema";
import { REMINDER_CALL, REMINDER_EMAIL } from "@/lib/outbox/kinds";
import { rangeOf } from "@/lib/time/in-words";
import { api } from "../support/api";
import { book, clientHeaders, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique, type TestHost } from "../support/factories";
import { startFakeTelephony, type FakeTelephony } from "../support/fake-telephony";
import { configure, jobsOfKind, testWorker } from "../support/jobs";
import { startSmtpServer, type SmtpSink } from "../support/smtp";
import { teamWithType } from "../support/teams";

// Reminders (decisions §16) end to end: bookings through the API, the outbox worker stepped with
// a chosen clock (runDueJobs(now): no sleeping), mail over SMTP to a server inside the test, calls
// to a fake Twilio-compatible provider.

withTestDatabase({ isolated: true });

let smtp: SmtpSink;
let phone: FakeTelephony;
beforeAll(async () => {
  smtp = await startSmtpServer();
  phone = await startFakeTelephony();
});
afterAll(async () => {
  await smtp.close();
  await phone.close();
});

const HOST_ZONE = "America/New_York";
const GUEST_ZONE = "Europe/Berlin";
const MINUTE = 60_000;

async function setUp(reminders: { minutesBefore: number; to: "guest" | "host" | "both" }[], fields: Record<string, unknown> = {}) {
  await (await getDb()).delete(outboxJobs);
  smtp.mails.length = 0;
  configure({ smtpUrl: smtp.url, calls: undefined });
  const host = await createHost({ timezone: HOST_ZONE, fullName: "Ada Host" });
  const eventType = await createEventType(host, { title: "Intro call", location: "Video call", reminders, ...fields });
  expect(eventType.reminders).toEqual(reminders);
  const date = dateIn(3, HOST_ZONE);
  await openOnly(host, date, [{ startTime: "09:00", endTime: "17:00" }]);
  const slots = await getSlots(host, eventType.slug, date);
  return { host, eventType, slots, worker: await testWorker() };
}

async function bookAt(host: TestHost, slug: string, startTime: string, fields: Record<string, unknown> = {}) {
  const guestEmail = `${unique("grace")}@example.com`;
  const res = await book(host, slug, startTime, { guestName: "Grace Guest", guestEmail, guestTimezone: GUEST_ZONE, ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as string, guestEmail, start: Date.parse(startTime) };
}

/** The mails that arrived since `from`, as [recipient, subject]. */
const mailsSince = (from: number) => smtp.mails.slice(from).map((m) => [m.envelopeTo[0], m.mail.subject]);
const pendingReminders = async (bookingId: string) =>
  (await jobsOfKind(REMINDER_EMAIL)).filter((j) => j.status === "pending" && (j.payload as { bookingId: string }).bookingId === bookingId);

describe("reminders", () => {
  it("go out once, at start − minutesBefore, to the guest (their language and zone, their links) and the host (their zone)", async () => {
    const { host, eventType, slots, worker } = await setUp([
      { minutesBefore: 60, to: "both" },
      { minutesBefore: 1440, to: "guest" },
    ]);
    const booked = await bookAt(host, eventType.slug, slots[2]!.startTime, { guestLanguage: "de" });
    await worker.runDueJobs(Date.now());
    // The confirmations went out; three reminders wait: the guest's and the host's an hour before, the guest's a day before.
    const afterConfirmations = smtp.mails.length;
    expect(afterConfirmations).toBe(2);
    const pending = await pendingReminders(booked.id);
    expect(pending.map((j) => [(j.payload as { reader: string }).reader, j.runAfter.getTime()]).sort()).toEqual(
      [
        ["guest", booked.start - 60 * MINUTE],
        ["guest", booked.start - 1440 * MINUTE],
        ["host", booked.start - 60 * MINUTE],
      ].sort(),
    );

    // A minute early: nothing. At the moment: the day-before reminder, once.
    await worker.runDueJobs(booked.start - 1441 * MINUTE);
    expect(smtp.mails.length).toBe(afterConfirmations);
    await worker.runDueJobs(booked.start - 1440 * MINUTE);
    await worker.runDueJobs(booked.start - 1439 * MINUTE);
    expect(mailsSince(afterConfirmations)).toEqual([[booked.guestEmail, expect.stringMatching(/^Erinnerung: Intro call mit Ada Host am /)]]);

    await worker.runDueJobs(booked.start - 60 * MINUTE);
    await worker.runDueJobs(booked.start - 30 * MINUTE);
    const sent = smtp.mails.slice(afterConfirmations);
    expect(sent.map((m) => m.envelopeTo[0]).sort()).toEqual([booked.guestEmail, booked.guestEmail, host.email].sort());
    const end = booked.start + 30 * MINUTE;
    const toGuest = sent.slice(1).find((m) => m.envelopeTo[0] === booked.guestEmail)!.mail;
    expect(toGuest.subject).toBe(`Erinnerung: Intro call mit Ada Host am ${DateTime.fromMillis(booked.start, { zone: GUEST_ZONE }).setLocale("de").toFormat("cccc, d. LLLL yyyy")}`);
    expect(toGuest.text).toContain("Zur Erinnerung: Ihre Buchung mit Ada Host steht bald an.");
    expect(toGuest.text).toContain(rangeOf(booked.start, end, GUEST_ZONE, undefined, "de"));
    expect(toGuest.text).toMatch(/Diese Buchung stornieren: http:\/\/booking\.test\/cancel\//);
    expect(toGuest.attachments).toEqual([]);
    const toHost = sent.find((m) => m.envelopeTo[0] === host.email)!.mail;
    expect(toHost.subject).toBe(`Reminder: Intro call with Grace Guest on ${DateTime.fromMillis(booked.start, { zone: HOST_ZONE }).toFormat("cccc, LLLL d, yyyy")}`);
    expect(toHost.text).toContain(rangeOf(booked.start, end, HOST_ZONE));
    expect(toHost.text).toContain(booked.guestEmail);
    expect(toHost.text).not.toContain("/cancel/");
    expect(toHost.text).toContain(`See it on your dashboard: http://booking.test/dashboard/bookings?booking=${booked.id}`);
    expect(toGuest.text).not.toContain("/dashboard");

    // Nothing goes twice.
    await worker.runDueJobs(booked.start + 60 * MINUTE);
    expect(smtp.mails.length).toBe(afterConfirmations + 3);
  });

  it("a reschedule moves them: the old time's reminders are dropped, the new time's go out before it", async () => {
    const { host, eventType, slots, worker } = await setUp([{ minutesBefore: 120, to: "both" }]);
    const booked = await bookAt(host, eventType.slug, slots[0]!.startTime);
    await worker.runDueJobs(Date.now());
    expect(await pendingReminders(booked.id)).toHaveLength(2);
    const target = slots[8]!.startTime;
    const moved = await api.post(`/me/bookings/${booked.id}/reschedule`, { startTime: target }, { token: host.token });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await worker.runDueJobs(Date.now());
    const newStart = Date.parse(target);
    const pending = await pendingReminders(booked.id);
    expect(pending.map((j) => [j.runAfter.getTime(), (j.payload as { sequence: number }).sequence])).toEqual([
      [newStart - 120 * MINUTE, 1],
      [newStart - 120 * MINUTE, 1],
    ]);
    const before = smtp.mails.length;
    await worker.runDueJobs(booked.start - 120 * MINUTE);
    expect(smtp.mails.length).toBe(before);
    await worker.runDueJobs(newStart - 120 * MINUTE);
    const sent = smtp.mails.slice(before);
    expect(sent.map((m) => m.envelopeTo[0]).sort()).toEqual([booked.guestEmail, host.email].sort());
    expect(sent.find((m) => m.envelopeTo[0] === host.email)!.mail.text).toContain(rangeOf(newStart, newStart + 30 * MINUTE, HOST_ZONE));
  });

  it("a cancel drops them; a reminder that slipped past the drop sends nothing for a booking no longer confirmed", async () => {
    const { host, eventType, slots, worker } = await setUp([{ minutesBefore: 60, to: "both" }]);
    const booked = await bookAt(host, eventType.slug, slots[0]!.startTime);
    const other = await bookAt(host, eventType.slug, slots[4]!.startTime);
    await worker.runDueJobs(Date.now());
    expect(await pendingReminders(booked.id)).toHaveLength(2);
    const cancelled = await api.post(`/me/bookings/${booked.id}/cancel`, { reason: "Ill" }, { token: host.token });
    expect(cancelled.status).toBe(200);
    await worker.runDueJobs(Date.now());
    expect(await pendingReminders(booked.id)).toEqual([]);
    expect(await pendingReminders(other.id)).toHaveLength(2);

    // The other booking is cancelled behind the outbox's back (no event): its reminders find it so at their time.
    await (await getDb()).update(bookings).set({ status: "cancelled", cancelledBy: "host", cancelledAt: new Date() }).where(eq(bookings.id, other.id));
    const before = smtp.mails.length;
    await worker.runDueJobs(other.start - 60 * MINUTE);
    expect(smtp.mails.length).toBe(before);
    expect((await jobsOfKind(REMINDER_EMAIL)).filter((j) => (j.payload as { bookingId: string }).bookingId === other.id).map((j) => j.status)).toEqual(["done", "done"]);
  });

  it("a reminder whose moment has passed when the booking is made is not made", async () => {
    const { host, eventType, slots, worker } = await setUp([
      { minutesBefore: 10080, to: "both" },
      { minutesBefore: 5, to: "guest" },
    ]);
    const booked = await bookAt(host, eventType.slug, slots[0]!.startTime);
    await worker.runDueJobs(Date.now());
    expect((await pendingReminders(booked.id)).map((j) => (j.payload as { minutesBefore: number }).minutesBefore)).toEqual([5]);
  });

  it("every host of a team booking gets the host's reminder", async () => {
    await (await getDb()).delete(outboxJobs);
    smtp.mails.length = 0;
    configure({ smtpUrl: smtp.url, calls: undefined });
    const date = dateIn(4, "UTC");
    const ann = await createHost({ timezone: "UTC", fullName: "Ann" });
    const ben = await createHost({ timezone: HOST_ZONE, fullName: "Ben" });
    await openOnly(ann, date, [{ startTime: "00:00", endTime: "24:00" }]);
    await openOnly(ben, date, [{ startTime: "00:00", endTime: "24:00" }]);
    const { team, eventType } = await teamWithType(ann, [ben], { schedulingType: "collective", reminders: [{ minutesBefore: 30, to: "host" }] });
    const start = `${date}T15:00:00Z`;
    const res = await api.post(
      `/public/teams/${team.slug}/${eventType.slug}/bookings`,
      { startTime: start, guestName: "Grace Guest", guestEmail: `${unique("grace")}@example.com`, guestTimezone: GUEST_ZONE, customAnswers: {} },
      { headers: { "idempotency-key": randomUUID(), ...clientHeaders() } },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const worker = await testWorker();
    await worker.runDueJobs(Date.now());
    const before = smtp.mails.length;
    await worker.runDueJobs(Date.parse(start) - 30 * MINUTE);
    const sent = smtp.mails.slice(before);
    expect(sent.map((m) => m.envelopeTo[0]).sort()).toEqual([ann.email, ben.email].sort());
    const benMail = sent.find((m) => m.envelopeTo[0] === ben.email)!.mail;
    expect(benMail.text).toContain(rangeOf(Date.parse(start), Date.parse(start) + 30 * MINUTE, HOST_ZONE));
    expect(benMail.text).toMatch(/Hosts:\s+Ann and Ben/);
  });

  it("calls the guest where calls are set up and the guest gave a phone number; not otherwise", async () => {
    const questions = [{ id: "phone", label: "Phone", required: false, type: "phone" }];
    const { host, eventType, slots, worker } = await setUp([{ minutesBefore: 60, to: "guest" }], { customQuestions: questions });
    configure({ calls: { baseUrl: phone.url, accountSid: phone.accountSid, authToken: phone.authToken, fromNumber: "+14155550100", timeoutMs: 5_000 } });
    const withPhone = await bookAt(host, eventType.slug, slots[0]!.startTime, { customAnswers: { phone: "+1 415 555 0123" } });
    const withoutPhone = await bookAt(host, eventType.slug, slots[4]!.startTime);
    await worker.runDueJobs(Date.now());
    const callJobs = await jobsOfKind(REMINDER_CALL);
    expect(callJobs.map((j) => (j.payload as { bookingId: string }).bookingId)).toEqual([withPhone.id]);

    phone.received.length = 0;
    await worker.runDueJobs(withPhone.start - 61 * MINUTE);
    expect(phone.received).toHaveLength(0);
    await worker.runDueJobs(withPhone.start - 60 * MINUTE);
    await worker.runDueJobs(withoutPhone.start - 60 * MINUTE);
    expect(phone.received.map((c) => c.form.get("To"))).toEqual(["+14155550123"]);
    expect(phone.received[0]!.form.get("Twiml")).toContain("Intro call");
    const [call] = await (await getDb()).select().from(calls).where(eq(calls.bookingId, withPhone.id));
    expect(call).toMatchObject({ agent: "reminder", toNumber: "+14155550123", hostId: host.id });
    // The emails went too.
    expect(smtp.mails.filter((m) => m.mail.subject?.startsWith("Reminder:")).map((m) => m.envelopeTo[0]).sort()).toEqual([withPhone.guestEmail, withoutPhone.guestEmail].sort());

    // Without calls configured, no call is planned.
    configure({ calls: undefined });
    const later = await bookAt(host, eventType.slug, slots[8]!.startTime, { customAnswers: { phone: "+1 415 555 0123" } });
    await worker.runDueJobs(Date.now());
    expect((await jobsOfKind(REMINDER_CALL)).filter((j) => (j.payload as { bookingId: string }).bookingId === later.id)).toEqual([]);
  });
});
