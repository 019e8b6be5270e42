import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { outboxJobs } from "@/db/schema";
import { runHousekeeping, sweepUnconfirmedRequests } from "@/lib/jobs/housekeeping";
import { api } from "../support/api";
import { book, clientHeaders, dateIn, getSlots, guest, insertBookingRow, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique, type TestHost } from "../support/factories";
import { readIcs } from "../support/ics";
import { configure, testWorker } from "../support/jobs";
import { startSmtpServer, type SmtpSink } from "../support/smtp";
import { teamWithType } from "../support/teams";
import { startReceiver, type Receiver } from "../support/webhook-receiver";

// Running a booking business (decisions §16), over HTTP: event types that need the host's
// approval (pending requests, confirm, decline, the system's expiry by the housekeeping sweep on
// a clock the test sets), no-show marks, and the history every change writes; the webhooks and
// the guest's emails in the order they went out, through the real worker, SMTP and HTTP.

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

const HOUR = 3_600_000;

async function setUp(fields: Record<string, unknown> = { requiresConfirmation: true }) {
  await (await getDb()).delete(outboxJobs);
  configure({ smtpUrl: smtp.url, webhooksAllowPrivate: true });
  receiver.received.length = 0;
  const host = await createHost({ timezone: "UTC", fullName: "Ada Host" });
  const eventType = await createEventType(host, { title: "Intro call", ...fields });
  const date = dateIn(5, "UTC");
  await openOnly(host, date);
  const slots = await getSlots(host, eventType.slug, date);
  const hook = await api.post("/me/webhooks", { url: receiver.url }, { token: host.token });
  expect(hook.status).toBe(201);
  receiver.secrets = [hook.body.secret];
  return { host, eventType, slots, date, worker: await testWorker() };
}

/** The guest's messages since `from`, oldest first. */
const guestMails = (from: number, email: string): ParsedMail[] => smtp.mails.slice(from).filter((m) => m.envelopeTo[0] === email).map((m) => m.mail);
const hostMails = (from: number, email: string): ParsedMail[] => smtp.mails.slice(from).filter((m) => m.envelopeTo[0] === email).map((m) => m.mail);
const invitationOf = (mail: ParsedMail) => mail.attachments.find((a) => a.contentType.startsWith("text/calendar"));

async function history(host: TestHost, id: string) {
  const res = await api.get(`/me/bookings/${id}/history`, { token: host.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Record<string, unknown>[];
}

async function bookingOf(host: TestHost, id: string, query = "") {
  const res = await api.get(`/me/bookings?limit=100${query}`, { token: host.token });
  expect(res.status).toBe(200);
  return (res.body.data as any[]).find((b) => b.id === id);
}

describe("approval", () => {
  it("a request is pending and holds its time; the host confirms it; the guest hears 'requested' then 'confirmed'", async () => {
    const { host, eventType, slots, date, worker } = await setUp();
    const guestEmail = `${unique("grace")}@example.com`;
    const booked = await book(host, eventType.slug, slots[0]!.startTime, { guestEmail });
    expect(booked.status).toBe(201);
    expect(booked.body.status).toBe("pending");
    expect(booked.body.confirmationMessage).toMatch(/^Intro call with Ada Host is requested for .*Ada Host will confirm it/);
    const id = booked.body.id as string;
    // It holds its time like a confirmed booking.
    expect((await getSlots(host, eventType.slug, date)).map((s) => s.startTime)).not.toContain(slots[0]!.startTime);
    expect((await bookingOf(host, id, "&status=pending")).status).toBe("pending");
    expect(await bookingOf(host, id, "&status=confirmed")).toBeUndefined();
    expect((await bookingOf(host, id, "&status=pending,confirmed")).id).toBe(id);

    const before = smtp.mails.length;
    await worker.runDueJobs();
    expect(receiver.received.map((r) => [r.body.type, r.body.data.status])).toEqual([["booking.created", "pending"]]);
    const [requested] = guestMails(before, guestEmail);
    expect(requested!.subject).toMatch(/^Requested: Intro call with Ada Host on /);
    expect(requested!.text).toContain("Your booking with Ada Host is requested");
    expect(invitationOf(requested!), "no invitation before the host confirms").toBeUndefined();
    const [hostRequest] = hostMails(before, host.email);
    expect(hostRequest!.subject).toMatch(/^Booking request: Intro call with Grace Guest on /);
    expect(hostRequest!.text).toContain(`Confirm or decline it: http://booking.test/dashboard/bookings?booking=${id}`);

    const confirmed = await api.post(`/me/bookings/${id}/confirm`, undefined, { token: host.token });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toMatchObject({ id, status: "confirmed", cancelledBy: null, noShow: false });
    // Answered once: a second confirm, or a decline after it, is refused.
    for (const verb of ["confirm", "decline"]) {
      const again = await api.post(`/me/bookings/${id}/${verb}`, {}, { token: host.token });
      expect(again.status).toBe(409);
      expect(again.body.error).toBe("booking_not_modifiable");
    }

    const beforeConfirm = smtp.mails.length;
    await worker.runDueJobs();
    expect(receiver.received.map((r) => [r.body.type, r.body.data.status])).toEqual([
      ["booking.created", "pending"],
      ["booking.confirmed", "confirmed"],
    ]);
    expect(receiver.received[1]!.body.data).toMatchObject({ id, status: "confirmed", hosts: [{ userId: host.id }] });
    const [confirmedMail] = guestMails(beforeConfirm, guestEmail);
    expect(confirmedMail!.subject).toMatch(/^Confirmed: Intro call with Ada Host on /);
    expect(confirmedMail!.text).toContain("Your booking with Ada Host is confirmed.");
    expect(readIcs(invitationOf(confirmedMail!)!.content.toString("utf8"))).toMatchObject({ method: "REQUEST", sequence: 0 });
    expect(hostMails(beforeConfirm, host.email).map((m) => m.subject)).toEqual([expect.stringMatching(/^Confirmed: Intro call with Grace Guest on /)]);
    // In order: requested, then confirmed.
    expect(guestMails(0, guestEmail).map((m) => m.subject!.split(":")[0])).toEqual(["Requested", "Confirmed"]);

    expect(await history(host, id)).toEqual([
      { at: expect.any(String), action: "created", actor: "guest" },
      { at: expect.any(String), action: "confirmed", actor: "host", userId: host.id },
    ]);
  });

  it("an event type without approval books confirmed, as before", async () => {
    const { host, eventType, slots } = await setUp({});
    const booked = await book(host, eventType.slug, slots[0]!.startTime);
    expect(booked.body.status).toBe("confirmed");
    const refused = await api.post(`/me/bookings/${booked.body.id}/confirm`, undefined, { token: host.token });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe("booking_not_modifiable");
  });

  it("the host declines a request with a reason: cancelled by the host, the time free again, the guest told why", async () => {
    const { host, eventType, slots, date, worker } = await setUp();
    const guestEmail = `${unique("grace")}@example.com`;
    const booked = await book(host, eventType.slug, slots[1]!.startTime, { guestEmail, guestLanguage: "de" });
    const id = booked.body.id as string;
    expect(booked.body.confirmationMessage).toContain("angefragt");
    await worker.runDueJobs();

    const declined = await api.post(`/me/bookings/${id}/decline`, { reason: "Fully booked that week" }, { token: host.token });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(declined.body).toMatchObject({ id, status: "cancelled", cancelledBy: "host", cancellationReason: "Fully booked that week" });
    expect((await getSlots(host, eventType.slug, date)).map((s) => s.startTime)).toContain(slots[1]!.startTime);
    expect((await api.post(`/me/bookings/${id}/confirm`, undefined, { token: host.token })).status).toBe(409);
    expect((await api.post(`/me/bookings/${id}/decline`, {}, { token: host.token })).status).toBe(409);

    const before = smtp.mails.length;
    await worker.runDueJobs();
    expect(receiver.received.map((r) => r.body.type)).toEqual(["booking.created", "booking.cancelled"]);
    expect(receiver.received[1]!.body.data).toEqual({
      bookingId: id,
      cancelledBy: "host",
      declined: true,
      hosts: [{ userId: host.id, username: host.username, fullName: "Ada Host" }],
      team: null,
    });
    const [mail] = guestMails(before, guestEmail);
    expect(mail!.subject).toMatch(/^Abgelehnt: Intro call mit Ada Host am /);
    expect(mail!.text).toContain("Ada Host hat Ihre Buchungsanfrage abgelehnt.");
    expect(mail!.text).toMatch(/Fully booked that week/);
    expect(invitationOf(mail!)).toBeUndefined();
    expect(guestMails(0, guestEmail).map((m) => m.subject!.split(":")[0])).toEqual(["Angefragt", "Abgelehnt"]);
    expect(hostMails(before, host.email).map((m) => m.subject)).toEqual([expect.stringMatching(/^Declined: Intro call with Grace Guest on /)]);

    expect(await history(host, id)).toEqual([
      { at: expect.any(String), action: "created", actor: "guest" },
      { at: expect.any(String), action: "cancelled", actor: "host", userId: host.id, reason: "Fully booked that week", declined: true },
    ]);
  });

  it("a request left unconfirmed until its start is cancelled by the system's sweep (a clock the test sets), once", async () => {
    const { host, eventType, slots, worker } = await setUp();
    const guestEmail = `${unique("grace")}@example.com`;
    const pending = await book(host, eventType.slug, slots[0]!.startTime, { guestEmail });
    const other = await book(host, eventType.slug, slots[2]!.startTime);
    expect((await api.post(`/me/bookings/${other.body.id}/confirm`, undefined, { token: host.token })).status).toBe(200);
    await worker.runDueJobs();
    const start = Date.parse(slots[0]!.startTime);

    // Before its start nothing happens; at its start it goes, and only it.
    expect(await sweepUnconfirmedRequests(await getDb(), start - 1)).toBe(0);
    expect((await runHousekeeping(await getDb(), start)).expiredRequests).toBe(1);
    expect(await sweepUnconfirmedRequests(await getDb(), start + HOUR)).toBe(0);

    const expired = await bookingOf(host, pending.body.id);
    expect(expired).toMatchObject({ status: "cancelled", cancelledBy: "system", cancellationReason: null });
    expect((await bookingOf(host, other.body.id)).status).toBe("confirmed");
    // Too late to answer it now.
    expect((await api.post(`/me/bookings/${pending.body.id}/confirm`, undefined, { token: host.token })).status).toBe(409);

    const before = smtp.mails.length;
    await worker.runDueJobs(start + 1000);
    // The first three went out in one run of the worker, each on its own: in any order.
    expect(receiver.received.slice(0, 3).map((r) => r.body.type).sort()).toEqual(["booking.confirmed", "booking.created", "booking.created"]);
    expect(receiver.received.map((r) => r.body.type)[3]).toBe("booking.cancelled");
    expect(receiver.received[3]!.body.data).toMatchObject({ bookingId: pending.body.id, cancelledBy: "system" });
    expect(receiver.received[3]!.body.data.declined).toBeUndefined();
    const [mail] = guestMails(before, guestEmail);
    expect(mail!.text).toContain("Ada Host did not confirm your booking request before its time, so it is cancelled.");
    expect(hostMails(before, host.email).map((m) => m.subject)).toEqual([expect.stringMatching(/^Expired request: Intro call with Grace Guest/)]);

    expect(await history(host, pending.body.id)).toEqual([
      { at: expect.any(String), action: "created", actor: "guest" },
      { at: new Date(start).toISOString().replace(".000Z", "Z"), action: "cancelled", actor: "system", reason: null },
    ]);
  });

  it("moves keep a request pending and are in its history (from, to; who moved it)", async () => {
    const { host, eventType, slots } = await setUp();
    const booked = await book(host, eventType.slug, slots[0]!.startTime);
    const id = booked.body.id as string;
    const token = new URL(booked.body.cancelUrl).pathname.split("/").pop()!;
    const byGuest = await api.post("/public/reschedule", { token, startTime: slots[1]!.startTime });
    expect(byGuest.status, JSON.stringify(byGuest.body)).toBe(200);
    expect(byGuest.body.status).toBe("pending");
    const byHost = await api.post(`/me/bookings/${id}/reschedule`, { startTime: slots[2]!.startTime }, { token: host.token });
    expect(byHost.body.status).toBe("pending");
    expect(await history(host, id)).toEqual([
      { at: expect.any(String), action: "created", actor: "guest" },
      { at: expect.any(String), action: "rescheduled", actor: "guest", from: slots[0]!.startTime, to: slots[1]!.startTime },
      { at: expect.any(String), action: "rescheduled", actor: "host", userId: host.id, from: slots[1]!.startTime, to: slots[2]!.startTime },
    ]);
  });

  it("a team's request: any host answers it, the history names who; every host is asked", async () => {
    await (await getDb()).delete(outboxJobs);
    configure({ smtpUrl: smtp.url });
    const date = dateIn(5, "UTC");
    const ann = await createHost({ timezone: "UTC", fullName: "Ann" });
    const ben = await createHost({ timezone: "UTC", fullName: "Ben" });
    const stranger = await createHost({ timezone: "UTC" });
    for (const h of [ann, ben]) await openOnly(h, date);
    const { team, eventType } = await teamWithType(ann, [ben], { schedulingType: "collective", requiresConfirmation: true });
    const slots = await api.get(`/public/teams/${team.slug}/${eventType.slug}/slots?from=${date}&to=${date}&timezone=UTC`, { headers: clientHeaders() });
    const startTime = slots.body.slots[0].startTime as string;
    const booked = await api.post(`/public/teams/${team.slug}/${eventType.slug}/bookings`, { startTime, ...guest() }, { headers: { "idempotency-key": crypto.randomUUID(), ...clientHeaders() } });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body.status).toBe("pending");
    const id = booked.body.id as string;
    const before = smtp.mails.length;
    await (await testWorker()).runDueJobs();
    for (const h of [ann, ben]) expect(hostMails(before, h.email).map((m) => m.subject)).toEqual([expect.stringMatching(/^Booking request: /)]);

    // Someone who is not a host of it learns nothing.
    expect((await api.post(`/me/bookings/${id}/confirm`, undefined, { token: stranger.token })).status).toBe(404);
    expect((await api.get(`/me/bookings/${id}/history`, { token: stranger.token })).status).toBe(404);

    const confirmed = await api.post(`/me/bookings/${id}/confirm`, undefined, { token: ben.token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.hosts.map((h: { userId: string }) => h.userId).sort()).toEqual([ann.id, ben.id].sort());
    for (const h of [ann, ben]) {
      expect(await history(h, id)).toEqual([
        { at: expect.any(String), action: "created", actor: "guest" },
        { at: expect.any(String), action: "confirmed", actor: "host", userId: ben.id },
      ]);
    }
    const cancelled = await api.post(`/me/bookings/${id}/cancel`, { reason: "Both away" }, { token: ann.token });
    expect(cancelled.status).toBe(200);
    expect((await history(ben, id)).at(-1)).toEqual({ at: expect.any(String), action: "cancelled", actor: "host", userId: ann.id, reason: "Both away" });
  });
});

describe("no-shows", () => {
  it("a host marks a past booking's guest as a no-show and takes it back; webhooks only; the list filters by it", async () => {
    const { host, eventType, slots, worker } = await setUp({});
    const past = await insertBookingRow(host.id, eventType.id, new Date(Date.now() - 2 * HOUR));
    const alsoPast = await insertBookingRow(host.id, eventType.id, new Date(Date.now() - 5 * HOUR));
    const cancelledPast = await insertBookingRow(host.id, eventType.id, new Date(Date.now() - 8 * HOUR), 30, { status: "cancelled", cancelledBy: "guest" });
    const upcoming = await book(host, eventType.slug, slots[0]!.startTime);
    await worker.runDueJobs();
    const mailsBefore = smtp.mails.length;

    const marked = await api.post(`/me/bookings/${past.row.id}/no-show`, { noShow: true }, { token: host.token });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    expect(marked.body).toMatchObject({ id: past.row.id, status: "confirmed", noShow: true });
    // The same value again changes nothing and tells no one.
    expect((await api.post(`/me/bookings/${past.row.id}/no-show`, { noShow: true }, { token: host.token })).body.noShow).toBe(true);

    for (const id of [upcoming.body.id, cancelledPast.row.id]) {
      const refused = await api.post(`/me/bookings/${id}/no-show`, { noShow: true }, { token: host.token });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe("booking_not_modifiable");
    }
    expect((await api.post(`/me/bookings/${past.row.id}/no-show`, { noShow: "yes" }, { token: host.token })).status).toBe(400);
    const stranger = await createHost();
    expect((await api.post(`/me/bookings/${past.row.id}/no-show`, { noShow: true }, { token: stranger.token })).status).toBe(404);

    const ids = async (query: string) => ((await api.get(`/me/bookings?limit=100${query}`, { token: host.token })).body.data as { id: string }[]).map((b) => b.id);
    expect(await ids("&noShow=true")).toEqual([past.row.id]);
    expect(await ids("&noShow=false&when=past")).toEqual([alsoPast.row.id, cancelledPast.row.id]);
    expect((await api.get("/me/bookings?noShow=maybe", { token: host.token })).status).toBe(400);

    await worker.runDueJobs();
    const undone = await api.post(`/me/bookings/${past.row.id}/no-show`, { noShow: false }, { token: host.token });
    expect(undone.body.noShow).toBe(false);
    await worker.runDueJobs();
    expect(receiver.received.map((r) => r.body.type)).toEqual(["booking.created", "booking.no_show_updated", "booking.no_show_updated"]);
    expect(receiver.received[1]!.body.data).toEqual({ bookingId: past.row.id, noShow: true, hosts: [{ userId: host.id, username: host.username, fullName: "Ada Host" }], team: null });
    expect(receiver.received[2]!.body.data.noShow).toBe(false);
    expect(smtp.mails.length, "a no-show mark sends no email").toBe(mailsBefore);

    expect(await history(host, past.row.id)).toEqual([
      { at: expect.any(String), action: "no_show", actor: "host", userId: host.id, noShow: true },
      { at: expect.any(String), action: "no_show", actor: "host", userId: host.id, noShow: false },
    ]);
  });
});

describe("history", () => {
  it("is the booking's hosts' only: 404 for anyone else and for an unknown booking", async () => {
    const { host, eventType, slots } = await setUp({});
    const booked = await book(host, eventType.slug, slots[0]!.startTime);
    const other = await createHost();
    expect((await api.get(`/me/bookings/${booked.body.id}/history`, { token: other.token })).status).toBe(404);
    expect((await api.get(`/me/bookings/bkg_nope/history`, { token: host.token })).status).toBe(404);
    expect((await api.get(`/me/bookings/${booked.body.id}/history`)).status).toBe(401);
    const token = new URL(booked.body.cancelUrl).pathname.split("/").pop()!;
    expect((await api.post("/public/cancel", { token, reason: "Changed my mind" })).status).toBe(200);
    expect(await history(host, booked.body.id)).toEqual([
      { at: expect.any(String), action: "created", actor: "guest" },
      { at: expect.any(String), action: "cancelled", actor: "guest", reason: "Changed my mind" },
    ]);
  });
});
