import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { simpleParser, type ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { outboxJobs } from "@/db/schema";
import { getConfig } from "@/lib/config";
import { BOOKING_EMAIL } from "@/lib/outbox/kinds";
import { rangeOf } from "@/lib/time/in-words";
import { api } from "../support/api";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique } from "../support/factories";
import { readIcs } from "../support/ics";
import { configure, testWorker } from "../support/jobs";
import { startSmtpServer, type SmtpSink } from "../support/smtp";
import { startReceiver, type Receiver } from "../support/webhook-receiver";

// Booking emails end to end: bookings through the API, the outbox worker, nodemailer talking SMTP
// to a real server inside the test; messages parsed with mailparser, invitations with ical.js.

withTestDatabase({ isolated: true });

let smtp: SmtpSink;
let receiver: Receiver;
beforeAll(async () => {
  smtp = await startSmtpServer();
  receiver = await startReceiver();
});
afterAll(async () => {
  await smtp.close();
  await receiver.close();
});

const HOST_ZONE = "America/New_York";
const GUEST_ZONE = "Europe/Berlin";

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function calendarPart(mail: ParsedMail): string {
  const part = mail.attachments.find((a) => a.contentType.startsWith("text/calendar") || a.contentType === "application/ics");
  expect(part, "the message carries an invitation").toBeDefined();
  return part!.content.toString("utf8");
}

/** The messages that arrived since `from`, by reader. */
function mailsFor(from: number, guestEmail: string, hostEmail: string) {
  const batch = smtp.mails.slice(from);
  expect(batch.map((m) => m.envelopeTo).sort()).toEqual([[guestEmail], [hostEmail]].sort());
  return { guest: batch.find((m) => m.envelopeTo[0] === guestEmail)!.mail, host: batch.find((m) => m.envelopeTo[0] === hostEmail)!.mail };
}

async function setUp() {
  await (await getDb()).delete(outboxJobs);
  configure({ smtpUrl: smtp.url, webhooksAllowPrivate: true });
  receiver.received.length = 0;
  const host = await createHost({ timezone: HOST_ZONE, fullName: "Ada Host" });
  const eventType = await createEventType(host, {
    title: "Intro call",
    location: "Video call",
    customQuestions: [{ id: "topic", label: "What shall we talk about?", required: true, type: "text" }],
  });
  const date = dateIn(6, HOST_ZONE);
  await openOnly(host, date);
  const slots = await getSlots(host, eventType.slug, date);
  const hook = await api.post("/me/webhooks", { url: receiver.url }, { token: host.token });
  receiver.secrets = [hook.body.secret];
  return { host, eventType, slots };
}

describe("booking emails", () => {
  it("confirmation, reschedule and cancellation: one signed delivery and a message to each person, times in their zone, invitations that update", async () => {
    const { host, eventType, slots } = await setUp();
    const worker = await testWorker();
    const guestEmail = `${unique("grace")}@example.com`;
    const guestName = `Grace "G" <Guest>`;
    const start = slots[0]!;

    // Confirmation.
    const booked = await book(host, eventType.slug, start.startTime, { guestName, guestEmail, guestTimezone: GUEST_ZONE, customAnswers: { topic: "Pricing & plans" } });
    expect(booked.status).toBe(201);
    expect(smtp.mails).toHaveLength(0); // sent from the outbox, not inside the request
    const sent = smtp.mails.length;
    await worker.runDueJobs();
    expect(receiver.received.map((r) => [r.body.type, r.verifiedBy])).toEqual([["booking.created", [0]]]);
    let { guest, host: hostMail } = mailsFor(sent, guestEmail, host.email);
    const id = booked.body.id as string;
    const uid = `${id}@booking.test`;
    const token = new URL(booked.body.cancelUrl).pathname.split("/").pop()!;
    const startMs = Date.parse(start.startTime);
    const endMs = Date.parse(start.endTime);

    expect(getConfig().mailFrom).toBe("Booking <no-reply@booking.test>");
    expect(guest.from?.value).toEqual([{ name: "Booking", address: "no-reply@booking.test" }]);
    expect(guest.subject).toBe(`Confirmed: Intro call with Ada Host on ${DateTime.fromMillis(startMs, { zone: GUEST_ZONE }).toFormat("cccc, LLLL d, yyyy")}`);
    expect(guest.text).toContain(rangeOf(startMs, endMs, GUEST_ZONE));
    expect(guest.text).toContain(DateTime.fromMillis(startMs, { zone: GUEST_ZONE }).toFormat("HH:mm")); // Berlin's hour, on Berlin's 24-hour clock
    expect(guest.text).not.toContain(`(${HOST_ZONE})`);
    expect(guest.text).toContain(`Cancel this booking: ${booked.body.cancelUrl}`);
    expect(guest.text).toContain(`Pick another time: ${booked.body.rescheduleUrl}`);
    expect(guest.text).toContain(`http://booking.test/api/v1/public/bookings/${token}.ics`);
    expect(guest.text).not.toMatch(/\d{4}-\d\d-\d\dT\d\d/); // no ISO strings
    expect(guest.html).toContain("Grace &quot;G&quot; &lt;Guest&gt;");
    expect(guest.html).not.toContain("<Guest>");
    expect(guest.messageId).toMatch(new RegExp(`^<${id}\\.\\d+\\.guest@booking\\.test>$`));
    let ics = readIcs(calendarPart(guest));
    expect(ics).toMatchObject({ method: "REQUEST", uid, sequence: 0, status: "CONFIRMED", start: start.startTime, end: start.endTime, summary: "Intro call with Ada Host" });
    expect(ics.organizer).toBe(`mailto:${host.email}`);
    expect(ics.attendees).toEqual([`mailto:${guestEmail}`]);

    expect(hostMail.subject).toBe(`New booking: Intro call with ${guestName} on ${DateTime.fromMillis(startMs, { zone: HOST_ZONE }).toFormat("cccc, LLLL d, yyyy")}`);
    expect(hostMail.text).toContain(rangeOf(startMs, endMs, HOST_ZONE));
    expect(hostMail.text).not.toContain(rangeOf(startMs, endMs, GUEST_ZONE));
    expect(hostMail.text).toContain(`Guest's timezone:`);
    expect(hostMail.text).toContain(guestEmail);
    expect(hostMail.text).toContain("What shall we talk about?");
    expect(hostMail.text).toContain("Pricing & plans");
    expect(hostMail.text).not.toContain("/cancel/");
    // The host's message leads to the booking on the dashboard; the guest's never does.
    const onDashboard = `See it on your dashboard: http://booking.test/dashboard/bookings?booking=${id}`;
    expect(hostMail.text).toContain(onDashboard);
    // A button: the link, and its words inside it.
    expect(hostMail.html).toMatch(new RegExp(`<a href="http://booking\\.test/dashboard/bookings\\?booking=${id}"[^>]*>(?:(?!</a>).)*See it on your dashboard(?:(?!</a>).)*</a>`, "s"));
    expect(guest.text).not.toContain("/dashboard");
    expect(readIcs(calendarPart(hostMail))).toMatchObject({ method: "REQUEST", uid, sequence: 0, summary: `Intro call with ${guestName}` });

    // Reschedule (by the host): SEQUENCE 1, new times, the old ones mentioned, the guest's link still there.
    const to = slots[3]!;
    expect((await api.post(`/me/bookings/${id}/reschedule`, { startTime: to.startTime }, { token: host.token })).status).toBe(200);
    const beforeMove = smtp.mails.length;
    await worker.runDueJobs();
    ({ guest, host: hostMail } = mailsFor(beforeMove, guestEmail, host.email));
    expect(receiver.received.map((r) => r.body.type)).toEqual(["booking.created", "booking.rescheduled"]);
    expect(guest.subject).toMatch(/^Rescheduled: Intro call with Ada Host, now on /);
    expect(guest.text).toMatch(new RegExp(`When:\\s+${escapeRe(rangeOf(Date.parse(to.startTime), Date.parse(to.endTime), GUEST_ZONE))}`));
    expect(guest.text).toMatch(new RegExp(`Was:\\s+${escapeRe(rangeOf(startMs, endMs, GUEST_ZONE))}`));
    expect(guest.text).toContain(booked.body.cancelUrl);
    expect(hostMail.text).toContain(rangeOf(Date.parse(to.startTime), Date.parse(to.endTime), HOST_ZONE));
    expect(hostMail.text).toContain(onDashboard);
    ics = readIcs(calendarPart(guest));
    expect(ics).toMatchObject({ method: "REQUEST", uid, sequence: 1, start: to.startTime, end: to.endTime });
    expect(readIcs(calendarPart(hostMail))).toMatchObject({ method: "REQUEST", uid, sequence: 1 });

    // The guest's calendar file follows the booking.
    const file = await api.get(`/public/bookings/${token}.ics`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(file.headers.get("cache-control")).toContain("no-store");
    expect(readIcs(file.body)).toMatchObject({ method: "REQUEST", uid, sequence: 1, start: to.startTime });

    // Cancellation (by the guest): METHOD:CANCEL at SEQUENCE 2.
    expect((await api.post("/public/cancel", { token })).status).toBe(200);
    const beforeCancel = smtp.mails.length;
    await worker.runDueJobs();
    ({ guest, host: hostMail } = mailsFor(beforeCancel, guestEmail, host.email));
    expect(receiver.received.map((r) => r.body.type)).toEqual(["booking.created", "booking.rescheduled", "booking.cancelled"]);
    expect(receiver.received[2]!.body.data).toEqual({ bookingId: id, cancelledBy: "guest", hosts: [{ userId: host.id, username: host.username, fullName: "Ada Host" }], team: null });
    expect(guest.subject).toMatch(/^Cancelled: Intro call with Ada Host on /);
    expect(guest.text).toContain("You cancelled your booking with Ada Host.");
    expect(guest.text).not.toContain("/cancel/");
    expect(hostMail.text).toContain(`${guestName} cancelled their booking.`);
    expect(hostMail.text).toContain(onDashboard);
    expect(guest.text).not.toContain("/dashboard");
    expect(hostMail.text).toContain(rangeOf(Date.parse(to.startTime), Date.parse(to.endTime), HOST_ZONE));
    for (const mail of [guest, hostMail]) {
      expect(readIcs(calendarPart(mail))).toMatchObject({ method: "CANCEL", uid, sequence: 2, status: "CANCELLED" });
    }
    expect(readIcs((await api.get(`/public/bookings/${token}.ics`)).body)).toMatchObject({ method: "CANCEL", sequence: 2, status: "CANCELLED" });

    // Everything went once.
    expect(await worker.runDueJobs(Date.now() + 3 * 86_400_000)).toBe(0);
    expect(smtp.mails.length).toBe(6);
    expect(receiver.received).toHaveLength(3);
  });

  it("a host's cancellation tells the guest who cancelled, and why", async () => {
    const { host, eventType, slots } = await setUp();
    const worker = await testWorker();
    const guestEmail = `${unique("guest")}@example.com`;
    const booked = await book(host, eventType.slug, slots[1]!.startTime, { guestEmail, customAnswers: { topic: "x" } });
    await worker.runDueJobs();
    const before = smtp.mails.length;
    await api.post(`/me/bookings/${booked.body.id}/cancel`, { reason: "I am ill" }, { token: host.token });
    await worker.runDueJobs();
    const { guest, host: hostMail } = mailsFor(before, guestEmail, host.email);
    expect(guest.text).toContain("Ada Host cancelled your booking.");
    expect(guest.text).toMatch(/Reason:\s+I am ill/);
    expect(hostMail.text).toContain("You cancelled your booking with Grace Guest.");
  });

  it("retries when the mail server is unreachable, and sends once it is back", async () => {
    const { host, eventType, slots } = await setUp();
    const down = await startSmtpServer();
    await down.close();
    configure({ smtpUrl: down.url });
    const worker = await testWorker();
    const guestEmail = `${unique("guest")}@example.com`;
    await book(host, eventType.slug, slots[2]!.startTime, { guestEmail, customAnswers: { topic: "x" } });
    await worker.runDueJobs();
    const failing = await (await getDb()).select().from(outboxJobs).where(eq(outboxJobs.kind, BOOKING_EMAIL));
    expect(failing.map((j) => [j.status, j.attempts])).toEqual([
      ["pending", 1],
      ["pending", 1],
    ]);
    expect(failing[0]!.lastError).toMatch(/ECONNREFUSED|connect/i);

    configure({ smtpUrl: smtp.url });
    const before = smtp.mails.length;
    expect(await worker.runDueJobs(Date.now() + 2 * 60_000)).toBe(2);
    mailsFor(before, guestEmail, host.email);
  });

  it("without SMTP_URL writes each message as an .eml file under DATA_DIR/mail", async () => {
    const { host, eventType, slots } = await setUp();
    configure({ smtpUrl: undefined });
    const worker = await testWorker();
    const guestEmail = `${unique("eml")}@example.com`;
    await book(host, eventType.slug, slots[4]!.startTime, { guestEmail, customAnswers: { topic: "x" } });
    const dir = path.join(getConfig().dataDir, "mail");
    await worker.runDueJobs();
    const parsed = await Promise.all(readdirSync(dir).filter((f) => f.endsWith(".eml")).map((f) => simpleParser(readFileSync(path.join(dir, f)))));
    const mine = parsed.filter((m) => [guestEmail, host.email].includes((m.to as { value: { address: string }[] }).value[0]!.address));
    expect(mine.map((m) => m.subject?.split(":")[0]).sort()).toEqual(["Confirmed", "New booking"]);
    expect(readIcs(calendarPart(mine[0]!)).method).toBe("REQUEST");

    // The folder is made once per process, and again if it was removed meanwhile.
    rmSync(dir, { recursive: true });
    await book(host, eventType.slug, slots[5]!.startTime, { guestEmail, customAnswers: { topic: "y" } });
    await worker.runDueJobs();
    expect(readdirSync(dir).filter((f) => f.endsWith(".eml"))).toHaveLength(2);
  });

  it("serves no calendar file for an unknown token", async () => {
    const res = await api.get("/public/bookings/not-a-real-token.ics");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "not_found", message: "Booking not found", details: {} });
  });
});
