import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { bookings, outboxJobs } from "@/db/schema";
import { REQUEST_EXPIRY_EMAIL } from "@/lib/outbox/kinds";
import { rangeOf } from "@/lib/time/in-words";
import { api } from "../support/api";
import { randomUUID } from "node:crypto";
import { book, clientHeaders, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique, type TestHost } from "../support/factories";
import { configure, jobsOfKind, testWorker } from "../support/jobs";
import { startSmtpServer, type SmtpSink } from "../support/smtp";
import { teamWithType } from "../support/teams";

// The warning to a host that a request expires unanswered (at its start): made when the request
// is, due 3 h before its start, sent once, and never for a request answered, cancelled or erased
// since. Bookings through the API; the outbox worker stepped on a chosen clock; mail over SMTP.

withTestDatabase({ isolated: true });

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
});

const HOST_ZONE = "America/New_York";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

async function setUp(language = "en") {
  await (await getDb()).delete(outboxJobs);
  smtp.mails.length = 0;
  configure({ smtpUrl: smtp.url });
  const host = await createHost({ timezone: HOST_ZONE, fullName: "Ada Host" });
  if (language !== "en") expect((await api.patch("/me", { language }, { token: host.token })).status).toBe(200);
  const eventType = await createEventType(host, { title: "Intro call", requiresConfirmation: true });
  const date = dateIn(3, HOST_ZONE);
  await openOnly(host, date, [{ startTime: "09:00", endTime: "17:00" }]);
  const slots = await getSlots(host, eventType.slug, date);
  const worker = await testWorker();
  return { host, eventType, slots, worker };
}

async function request(host: TestHost, slug: string, startTime: string) {
  const guestEmail = `${unique("jane")}@example.com`;
  const res = await book(host, slug, startTime, { guestName: "Jane Doe", guestEmail, guestTimezone: "Europe/Berlin" });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.status).toBe("pending");
  return { id: res.body.id as string, guestEmail, start: Date.parse(startTime), token: String(res.body.cancelUrl).split("/").pop()! };
}

const warningsTo = (email: string) => smtp.mails.filter((m) => m.envelopeTo[0] === email && /expires|läuft/.test(m.mail.subject ?? "")).map((m) => m.mail);
const pendingWarnings = async (bookingId: string) =>
  (await jobsOfKind(REQUEST_EXPIRY_EMAIL)).filter((j) => j.status === "pending" && (j.payload as { bookingId: string }).bookingId === bookingId);

describe("the warning before a request expires", () => {
  it("is made with the request, due 3 h before its start, and goes to the host once", async () => {
    const { host, eventType, slots, worker } = await setUp();
    const asked = await request(host, eventType.slug, slots[2]!.startTime);
    await worker.runDueJobs(Date.now());
    const [job, ...more] = await pendingWarnings(asked.id);
    expect(more).toEqual([]);
    expect(job!.runAfter.getTime()).toBe(asked.start - 3 * HOUR);
    expect(job!.payload).toMatchObject({ bookingId: asked.id, hostId: host.id, sequence: 0 });

    await worker.runDueJobs(asked.start - 3 * HOUR - MINUTE);
    expect(warningsTo(host.email)).toEqual([]);
    await worker.runDueJobs(asked.start - 3 * HOUR);
    await worker.runDueJobs(asked.start - 2 * HOUR);
    await worker.runDueJobs(asked.start - MINUTE);
    const [mail, ...again] = warningsTo(host.email);
    expect(again).toEqual([]);
    const day = DateTime.fromMillis(asked.start, { zone: HOST_ZONE }).toFormat("cccc, LLLL d, yyyy");
    expect(mail!.subject).toMatch(new RegExp(`^A request expires in 3 hours: Jane Doe, ${day}, `));
    expect(mail!.text).toContain(rangeOf(asked.start, asked.start + 30 * MINUTE, HOST_ZONE));
    expect(mail!.text).toContain(`Confirm or decline it: http://booking.test/dashboard/bookings?booking=${asked.id}`);
    expect(mail!.replyTo?.value[0]?.address).toBe(asked.guestEmail);
    expect(warningsTo(asked.guestEmail)).toEqual([]);
  });

  it("is in the host's language", async () => {
    const { host, eventType, slots, worker } = await setUp("de");
    const asked = await request(host, eventType.slug, slots[0]!.startTime);
    await worker.runDueJobs(Date.now());
    await worker.runDueJobs(asked.start - 3 * HOUR);
    const [mail] = warningsTo(host.email);
    expect(mail!.subject).toMatch(/^Eine Anfrage läuft in 3 Stunden ab: Jane Doe, /);
    expect(mail!.text).toContain("Bestätigen oder ablehnen: http://booking.test/dashboard/bookings?booking=");
  });

  it("is dropped when the host confirms or declines the request, and sends nothing for one answered behind its back", async () => {
    const { host, eventType, slots, worker } = await setUp();
    const confirmed = await request(host, eventType.slug, slots[0]!.startTime);
    const declined = await request(host, eventType.slug, slots[4]!.startTime);
    const answeredQuietly = await request(host, eventType.slug, slots[8]!.startTime);
    await worker.runDueJobs(Date.now());
    for (const r of [confirmed, declined, answeredQuietly]) expect(await pendingWarnings(r.id)).toHaveLength(1);

    expect((await api.post(`/me/bookings/${confirmed.id}/confirm`, {}, { token: host.token })).status).toBe(200);
    expect((await api.post(`/me/bookings/${declined.id}/decline`, {}, { token: host.token })).status).toBe(200);
    await worker.runDueJobs(Date.now());
    expect(await pendingWarnings(confirmed.id)).toEqual([]);
    expect(await pendingWarnings(declined.id)).toEqual([]);

    // Confirmed without an event (as a job already running would find it): the warning finds it so at its time.
    await (await getDb()).update(bookings).set({ status: "confirmed" }).where(eq(bookings.id, answeredQuietly.id));
    await worker.runDueJobs(answeredQuietly.start - MINUTE);
    expect(warningsTo(host.email)).toEqual([]);
    expect((await jobsOfKind(REQUEST_EXPIRY_EMAIL)).filter((j) => (j.payload as { bookingId: string }).bookingId === answeredQuietly.id).map((j) => j.status)).toEqual(["done"]);
  });

  it("sends nothing once the guest's data is erased", async () => {
    const { host, eventType, slots, worker } = await setUp();
    const asked = await request(host, eventType.slug, slots[0]!.startTime);
    await worker.runDueJobs(Date.now());
    expect((await api.delete(`/me/guests/${encodeURIComponent(asked.guestEmail)}`, { token: host.token })).status).toBe(204);
    await worker.runDueJobs(asked.start - 3 * HOUR);
    expect(warningsTo(host.email)).toEqual([]);
  });

  it("moves with the request when the guest picks another time: the old time's is dropped", async () => {
    const { host, eventType, slots, worker } = await setUp();
    const asked = await request(host, eventType.slug, slots[0]!.startTime);
    await worker.runDueJobs(Date.now());
    const moved = await api.post("/public/reschedule", { token: asked.token, startTime: slots[8]!.startTime }, { headers: clientHeaders() });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await worker.runDueJobs(Date.now());
    const newStart = Date.parse(slots[8]!.startTime);
    expect((await pendingWarnings(asked.id)).map((j) => [j.runAfter.getTime(), (j.payload as { sequence: number }).sequence])).toEqual([[newStart - 3 * HOUR, 1]]);
    await worker.runDueJobs(asked.start - 3 * HOUR);
    expect(warningsTo(host.email)).toEqual([]);
    await worker.runDueJobs(newStart - 3 * HOUR);
    expect(warningsTo(host.email)).toHaveLength(1);
  });

  it("goes to every host of a team's request", async () => {
    await (await getDb()).delete(outboxJobs);
    smtp.mails.length = 0;
    configure({ smtpUrl: smtp.url });
    const date = dateIn(4, "UTC");
    const ann = await createHost({ timezone: "UTC", fullName: "Ann" });
    const ben = await createHost({ timezone: HOST_ZONE, fullName: "Ben" });
    await openOnly(ann, date, [{ startTime: "00:00", endTime: "24:00" }]);
    await openOnly(ben, date, [{ startTime: "00:00", endTime: "24:00" }]);
    const { team, eventType } = await teamWithType(ann, [ben], { schedulingType: "collective", requiresConfirmation: true });
    const start = `${date}T15:00:00Z`;
    const res = await api.post(
      `/public/teams/${team.slug}/${eventType.slug}/bookings`,
      { startTime: start, guestName: "Jane Doe", guestEmail: `${unique("jane")}@example.com`, guestTimezone: "UTC", customAnswers: {} },
      { headers: { "idempotency-key": randomUUID(), ...clientHeaders() } },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const worker = await testWorker();
    await worker.runDueJobs(Date.now());
    await worker.runDueJobs(Date.parse(start) - 3 * HOUR);
    expect(warningsTo(ann.email)).toHaveLength(1);
    const [toBen] = warningsTo(ben.email);
    expect(toBen!.text).toContain(rangeOf(Date.parse(start), Date.parse(start) + 30 * MINUTE, HOST_ZONE));
    expect(toBen!.text).toMatch(/Hosts:\s+Ann and Ben/);
  });

  it("is not made for a booking confirmed at once", async () => {
    const { host, slots, worker } = await setUp();
    const instant = await createEventType(host, { title: "Quick chat" });
    const res = await book(host, instant.slug, slots[0]!.startTime, { guestName: "Jane Doe", guestEmail: `${unique("jane")}@example.com`, guestTimezone: "UTC" });
    expect(res.status).toBe(201);
    await worker.runDueJobs(Date.now());
    expect(await jobsOfKind(REQUEST_EXPIRY_EMAIL)).toEqual([]);
  });
});
