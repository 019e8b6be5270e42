import { randomUUID } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as feed } from "@/app/feeds/[file]/route";
import { bookingUid } from "@/lib/links";
import { getDb } from "@/lib/store/database";
import { outboxJobs } from "@/db/schema";
import { api } from "../support/api";
import { book, clientHeaders, dateIn, getSlots, guest, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { configure, testWorker } from "../support/jobs";
import { startRadicale, type Radicale } from "../support/radicale";
import { startSmtpServer, type SmtpSink } from "../support/smtp";
import { teamWithType } from "../support/teams";
import { startReceiver, type Receiver } from "../support/webhook-receiver";

// Team event types booked over HTTP (decisions §15): round robin spreads bookings by the rule and
// skips whoever is busy (their own bookings, their calendar's busy time from Radicale); collective
// offers only the times every host has and books them all; any host may move or cancel; a
// round-robin booking moved to a time its host is not free goes to another host; each host hears
// of it (email, webhook) and the guest once.

withTestDatabase({ isolated: true });

let radicale: Radicale | undefined;
let smtp: SmtpSink;
let receiver: Receiver;
beforeAll(async () => {
  [radicale, smtp, receiver] = await Promise.all([startRadicale(), startSmtpServer(), startReceiver()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([radicale?.close(), smtp.close(), receiver.close()]);
});

const at = (date: string, time: string, zone = "UTC") => DateTime.fromISO(`${date}T${time}`, { zone }).toUTC().toISO({ suppressMilliseconds: true })!;

async function teamSlots(teamSlug: string, slug: string, date: string, timezone = "UTC") {
  const res = await api.get(`/public/teams/${teamSlug}/${slug}/slots?from=${date}&to=${date}&timezone=${encodeURIComponent(timezone)}`, { headers: clientHeaders() });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.slots as { startTime: string }[]).map((s) => s.startTime);
}

function bookTeam(teamSlug: string, slug: string, startTime: string, fields: Record<string, unknown> = {}, key = randomUUID()) {
  return api.post(`/public/teams/${teamSlug}/${slug}/bookings`, { startTime, ...guest(fields) }, { headers: { "idempotency-key": key, ...clientHeaders() } });
}

async function bookingsOf(host: TestHost, query = "") {
  const res = await api.get(`/me/bookings?limit=100${query}`, { token: host.token });
  expect(res.status).toBe(200);
  return res.body.data as any[];
}

/** Three hosts in a team, each open on `date` from `from` to `to` (UTC), and a round-robin type of theirs. */
async function roundRobinTeam(date: string, from = "09:00", to = "17:00", fields: Record<string, unknown> = {}) {
  const hosts = [await createHost({ timezone: "UTC", fullName: "Ann" }), await createHost({ timezone: "UTC", fullName: "Ben" }), await createHost({ timezone: "UTC", fullName: "Cy" })];
  for (const h of hosts) await openOnly(h, date, [{ startTime: from, endTime: to }]);
  const { team, eventType } = await teamWithType(hosts[0]!, hosts.slice(1), { schedulingType: "round_robin", ...fields });
  const byId = [...hosts].sort((a, b) => (a.id < b.id ? -1 : 1));
  const names = new Map(hosts.map((h, i) => [h.id, ["Ann", "Ben", "Cy"][i]!]));
  return { hosts, byId, team, eventType, nameOf: (h: TestHost) => names.get(h.id)! };
}

describe("round robin", () => {
  it("spreads 30 bookings over 3 free hosts by the rule: fewest recent bookings, then least recently booked, then lowest id", async () => {
    const date = dateIn(5, "UTC");
    const { hosts, byId, team, eventType } = await roundRobinTeam(date, "06:00", "21:00");
    const starts = await teamSlots(team.slug, eventType.slug, date);
    expect(starts).toHaveLength(30);

    const assigned: string[] = [];
    for (const start of starts) {
      const res = await bookTeam(team.slug, eventType.slug, start);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const [booking] = (await bookingsOf(byId[0]!)).filter((b) => b.id === res.body.id);
      const owner = booking ? byId[0]!.id : (await bookingsOf(byId[1]!)).some((b) => b.id === res.body.id) ? byId[1]!.id : byId[2]!.id;
      assigned.push(owner);
    }
    // Every host starts at 0: lowest id first, then whoever has fewest, ties to the least recently booked.
    expect(assigned).toEqual(starts.map((_, i) => byId[i % 3]!.id));
    for (const h of hosts) {
      const mine = await bookingsOf(h);
      expect(mine).toHaveLength(10);
      expect(mine[0]).toMatchObject({ team: { id: team.id, slug: team.slug, name: "Sales" }, hosts: [{ userId: h.id, username: h.username }] });
    }
    // Each start took one host: the other two are still free at every one of them.
    expect(await teamSlots(team.slug, eventType.slug, date)).toEqual(starts);
  });

  it("skips a host who is busy: their own personal booking, their calendar's busy time (Radicale)", async (ctx) => {
    const date = dateIn(6, "UTC");
    const { byId, team, eventType, nameOf } = await roundRobinTeam(date);
    const [first, second, third] = byId as [TestHost, TestHost, TestHost];

    // The rule would pick `first`; a personal booking of theirs at 10:00 makes it `second`.
    const personal = await createEventType(first, { durationMinutes: 30 });
    expect((await book(first, personal.slug, at(date, "10:00"))).status).toBe(201);
    const ten = await bookTeam(team.slug, eventType.slug, at(date, "10:00"));
    expect(ten.status, JSON.stringify(ten.body)).toBe(201);
    expect((await bookingsOf(second)).map((b) => b.id)).toEqual([ten.body.id]);
    expect(ten.body.confirmationMessage).toContain(`with ${nameOf(second)} is confirmed`);
    expect(ten.body.hostNames).toEqual([nameOf(second)]);

    if (!radicale) return ctx.skip();
    // `first` (no team booking yet) is busy at 11:00 in their calendar: `third` takes it.
    configure({ caldavServerUrl: radicale.url });
    const calendarName = `team-${Date.now()}`;
    await radicale.createCalendar(calendarName, "Busy");
    const stamp = (iso: string) => iso.replace(/[-:]/g, "");
    await radicale.putEvent(
      calendarName,
      "busy.ics",
      ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VEVENT", "UID:team-busy-1", `DTSTAMP:${stamp(at(date, "00:00"))}`, `DTSTART:${stamp(at(date, "11:00"))}`, `DTEND:${stamp(at(date, "12:00"))}`, "SUMMARY:Dentist", "END:VEVENT", "END:VCALENDAR", ""].join("\r\n"),
    );
    const connected = await api.post("/me/calendar-connections/provider_c", { providerAccountId: radicale.username, appSpecificPassword: radicale.password }, { token: first.token });
    expect(connected.status, JSON.stringify(connected.body)).toBe(201);
    // Only this test's calendar counts as busy (the account is shared with other tests).
    for (const c of connected.body.calendars.filter((c: any) => c.name !== "Busy")) {
      await api.patch(`/me/calendar-connections/${connected.body.id}`, { calendars: [{ id: c.id, checkConflicts: false }] }, { token: first.token });
    }
    const eleven = await bookTeam(team.slug, eventType.slug, at(date, "11:00"));
    expect(eleven.status, JSON.stringify(eleven.body)).toBe(201);
    expect((await bookingsOf(third)).map((b) => b.id)).toEqual([eleven.body.id]);
    expect((await bookingsOf(first)).map((b) => b.eventType.id)).not.toContain(eventType.id);
  });

  it("a move keeps the host when they are free, else goes to another host by the rule, and says so", async () => {
    await (await getDb()).delete(outboxJobs);
    configure({ smtpUrl: smtp.url });
    const date = dateIn(7, "UTC");
    const { byId, team, eventType, nameOf } = await roundRobinTeam(date);
    const [first, second] = byId as [TestHost, TestHost, TestHost];
    const booked = await bookTeam(team.slug, eventType.slug, at(date, "10:00"));
    expect(booked.status).toBe(201);
    expect((await bookingsOf(first)).map((b) => b.id)).toEqual([booked.body.id]);

    // Free at 10:30: kept, even though others have fewer bookings.
    const kept = await api.post(`/me/bookings/${booked.body.id}/reschedule`, { startTime: at(date, "10:30") }, { token: first.token });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.hosts).toEqual([{ userId: first.id, username: first.username, fullName: nameOf(first) }]);

    // Busy at 12:00 (a personal booking): the guest's move goes to the rule's pick, `second`.
    const personal = await createEventType(first, { durationMinutes: 30 });
    expect((await book(first, personal.slug, at(date, "12:00"))).status).toBe(201);
    const token = booked.body.cancelUrl.split("/").pop();
    const worker = await testWorker();
    await worker.runDueJobs();
    const before = smtp.mails.length;
    const moved = await api.post("/public/reschedule", { token, startTime: at(date, "12:00") });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.message).toContain(nameOf(second));
    expect((await bookingsOf(first)).map((b) => b.id)).not.toContain(booked.body.id);
    expect((await bookingsOf(second)).find((b) => b.id === booked.body.id)).toMatchObject({ startTime: at(date, "12:00"), hosts: [{ userId: second.id }] });

    const event = (await (await getDb()).select().from(outboxJobs).where(eq(outboxJobs.kind, "booking.rescheduled")).orderBy(desc(outboxJobs.id)))[0]!.payload as any;
    expect(event.data).toMatchObject({ hosts: [{ userId: second.id }], previousHosts: [{ userId: first.id }], team: { id: team.id } });
    await worker.runDueJobs();
    const mails = smtp.mails.slice(before);
    expect(mails.map((m) => m.envelopeTo[0]).sort()).toEqual([booked.body.guestEmail, first.email, second.email].sort());
    expect(mails.find((m) => m.envelopeTo[0] === first.email)!.mail.subject).toBe(`Reassigned: Team call with Grace Guest now goes to ${nameOf(second)}`);
    expect(mails.find((m) => m.envelopeTo[0] === second.email)!.mail.subject).toMatch(/reassigned to you/);

    // Nobody free at the new time: 409, and nothing moves.
    for (const h of byId) {
      const own = await createEventType(h, { durationMinutes: 30 });
      expect((await book(h, own.slug, at(date, "15:00"))).status).toBe(201);
    }
    const nobody = await api.post(`/me/bookings/${booked.body.id}/reschedule`, { startTime: at(date, "15:00") }, { token: second.token });
    expect(nobody.status).toBe(409);
    expect(nobody.body.error).toBe("slot_unavailable");
  });
});

describe("team explain", () => {
  it("shows a member who is not an owner only that a teammate is busy, and when; owners and the teammate see the booking", async () => {
    const date = dateIn(9, "UTC");
    const [ann, ben] = [await createHost({ timezone: "UTC", fullName: "Ann" }), await createHost({ timezone: "UTC", fullName: "Ben" })];
    for (const h of [ann, ben]) await openOnly(h, date, [{ startTime: "09:00", endTime: "12:00" }]);
    const { team, eventType } = await teamWithType(ann, [ben], { schedulingType: "collective" });
    // Ann's own, personal booking at 10:00: nothing of the team's.
    const personal = await createEventType(ann, { title: "Private therapy" });
    const booked = await book(ann, personal.slug, at(date, "10:00"), { guestName: "Priya Private" });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const url = `/me/teams/${team.id}/event-types/${eventType.id}/explain?startTime=${at(date, "10:00")}`;

    const asBen = await api.get(url, { token: ben.token });
    expect(asBen.status, JSON.stringify(asBen.body)).toBe(200);
    const annAsBenSees = asBen.body.hosts.find((h: { userId: string }) => h.userId === ann.id);
    expect(annAsBenSees.bookable).toBe(false);
    expect(annAsBenSees.reasons).toEqual([{ code: "busy", start: at(date, "10:00"), end: expect.any(String), message: expect.stringMatching(/^Ann is busy from .* 10:00 to /) }]);
    expect(JSON.stringify(asBen.body)).not.toContain(booked.body.id);

    // The owner sees which booking it is; so does Ann of her own.
    const asAnn = await api.get(url, { token: ann.token });
    expect(asAnn.body.hosts.find((h: { userId: string }) => h.userId === ann.id).reasons).toEqual([expect.objectContaining({ code: "booking_conflict", bookingId: booked.body.id })]);
  });
});

describe("collective", () => {
  it("offers only the times every host has, in their own zones, books them all, and tells each of them", async () => {
    await (await getDb()).delete(outboxJobs);
    configure({ smtpUrl: smtp.url, webhooksAllowPrivate: true });
    receiver.received.length = 0;
    const date = dateIn(8, "UTC");
    const ann = await createHost({ timezone: "UTC", fullName: "Ann" });
    // New York: 05:00–08:00 there is 10:00–13:00 UTC in winter (13:00 in summer would show too).
    const ben = await createHost({ timezone: "America/New_York", fullName: "Ben" });
    const outsider = await createHost({ timezone: "UTC" });
    await openOnly(ann, date, [{ startTime: "09:00", endTime: "12:00" }]);
    await openOnly(ben, date, [{ startTime: "05:00", endTime: "08:00" }]);
    const { team, eventType } = await teamWithType(ann, [ben], { schedulingType: "collective", title: "Panel interview" });
    expect(eventType.hostIds.sort()).toEqual([ann.id, ben.id].sort());
    const hook = await api.post("/me/webhooks", { url: receiver.url }, { token: ben.token });
    receiver.secrets = [hook.body.secret];

    const common = [at(date, "05:00", "America/New_York"), at(date, "05:30", "America/New_York"), at(date, "06:00", "America/New_York"), at(date, "06:30", "America/New_York")];
    expect(await teamSlots(team.slug, eventType.slug, date)).toEqual(common);
    expect(common[0]).toBe(at(date, DateTime.fromISO(common[0]!).toUTC().toFormat("HH:mm")));

    // Explain, per host, in each host's words: 09:00 UTC is Ann's but 04:00 for Ben.
    const explained = await api.get(`/me/teams/${team.id}/event-types/${eventType.id}/explain?startTime=${at(date, "09:00")}`, { token: ann.token });
    expect(explained.status, JSON.stringify(explained.body)).toBe(200);
    expect(explained.body).toMatchObject({ schedulingType: "collective", bookable: false, hosts: [{ userId: ann.id, bookable: true, reasons: [] }, { userId: ben.id, bookable: false }] });
    expect(explained.body.hosts[1].reasons).toEqual([expect.objectContaining({ code: "outside_hours", message: expect.stringContaining("inside Ben’s hours") })]);
    expect((await api.get(`/me/teams/${team.id}/event-types/${eventType.id}/explain?startTime=${common[0]}`, { token: ben.token })).body.bookable).toBe(true);
    expect((await api.get(`/me/teams/${team.id}/event-types/${eventType.id}/explain?startTime=${common[0]}`, { token: outsider.token })).status).toBe(404);

    const booked = await bookTeam(team.slug, eventType.slug, common[0]!, { guestName: "Gil Guest" });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body.confirmationMessage).toContain("Ann and Ben");
    expect(booked.body.hostNames).toEqual(["Ann", "Ben"]);
    for (const h of [ann, ben]) {
      const [mine] = await bookingsOf(h);
      expect(mine).toMatchObject({ id: booked.body.id, team: { slug: team.slug, name: "Sales" } });
      expect(mine.hosts.map((x: any) => x.userId)).toEqual([ann.id, ben.id]);
    }
    expect(await bookingsOf(outsider)).toEqual([]);
    // …and in each host's calendar feed.
    for (const h of [ann, ben]) {
      const url = (await api.post("/me/calendar-feed", undefined, { token: h.token })).body.url as string;
      const res = await feed(new Request(url), { params: Promise.resolve({ file: new URL(url).pathname.split("/").pop()! }) });
      expect(await res.text()).toContain(bookingUid(booked.body.id));
    }
    expect(await teamSlots(team.slug, eventType.slug, date)).toEqual(common.slice(1));
    // The booking blocks each host's personal slots too.
    const annPersonal = await createEventType(ann, { durationMinutes: 30 });
    const benPersonal = await createEventType(ben, { durationMinutes: 30 });
    expect((await getSlots(ann, annPersonal.slug, date, date, "UTC")).map((s) => s.startTime)).not.toContain(common[0]);
    expect((await getSlots(ben, benPersonal.slug, date, date, "UTC")).map((s) => s.startTime)).not.toContain(common[0]);
    // …and the database refuses a personal booking over it.
    expect((await book(ben, benPersonal.slug, common[0]!)).status).toBe(409);

    const before = smtp.mails.length;
    await (await testWorker()).runDueJobs();
    const mails = smtp.mails.slice(before);
    expect(mails.map((m) => m.envelopeTo[0]).sort()).toEqual([booked.body.guestEmail, ann.email, ben.email].sort());
    const benMail = mails.find((m) => m.envelopeTo[0] === ben.email)!.mail;
    expect(benMail.text).toMatch(/Team:\s+Sales/);
    expect(benMail.text).toMatch(/Hosts:\s+Ann and Ben/);
    // Ben's copy is in Ben's zone: 5:00 AM New York.
    expect(benMail.text).toMatch(/5:00/);
    expect(mails.find((m) => m.envelopeTo[0] === booked.body.guestEmail)!.mail.text).toContain("Ann and Ben");
    expect(receiver.received.map((r) => r.body.type)).toEqual(["booking.created"]);
    expect(receiver.received[0]!.body.data).toMatchObject({ id: booked.body.id, team: { id: team.id, slug: team.slug, name: "Sales" }, hosts: [{ userId: ann.id }, { userId: ben.id }] });

    // Any host may move it, and only to a time every host has; then any host may cancel it.
    expect((await api.post(`/me/bookings/${booked.body.id}/reschedule`, { startTime: at(date, "09:00") }, { token: ben.token })).status).toBe(409);
    const moved = await api.post(`/me/bookings/${booked.body.id}/reschedule`, { startTime: common[2] }, { token: ben.token });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.hosts.map((x: any) => x.userId)).toEqual([ann.id, ben.id]);
    expect((await api.post(`/me/bookings/${booked.body.id}/cancel`, {}, { token: outsider.token })).status).toBe(404);
    const cancelled = await api.post(`/me/bookings/${booked.body.id}/cancel`, { reason: "Role filled" }, { token: ann.token });
    expect(cancelled.status).toBe(200);
    expect((await bookingsOf(ben, "&status=cancelled")).map((b) => b.id)).toEqual([booked.body.id]);
    expect(await teamSlots(team.slug, eventType.slug, date)).toEqual(common);
  });
});

describe("the public team routes", () => {
  it("answer like the personal ones: the page, 404s, the 31-day cap, bad input, idempotent replays", async () => {
    const date = dateIn(9, "UTC");
    const { team, eventType } = await roundRobinTeam(date, "09:00", "10:00");
    const page = await api.get(`/public/teams/${team.slug}/${eventType.slug}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ team: { slug: team.slug, name: "Sales" }, schedulingType: "round_robin", eventType: { slug: eventType.slug, title: "Team call", durationMinutes: 30 } });
    expect(page.body.hosts.map((h: any) => h.fullName)).toEqual(["Ann", "Ben", "Cy"]);
    expect(JSON.stringify(page.body)).not.toMatch(/@|usr_/);

    expect((await api.get(`/public/teams/${team.slug}/nope`)).status).toBe(404);
    expect((await api.get(`/public/teams/nope-${Date.now()}/${eventType.slug}/slots?from=${date}&to=${date}&timezone=UTC`, { headers: clientHeaders() })).status).toBe(404);
    const far = DateTime.fromISO(date).plus({ days: 40 }).toISODate();
    const tooLong = await api.get(`/public/teams/${team.slug}/${eventType.slug}/slots?from=${date}&to=${far}&timezone=UTC`, { headers: clientHeaders() });
    expect(tooLong.status).toBe(400);
    expect((await api.get(`/public/teams/${team.slug}/${eventType.slug}/slots?from=${date}&to=${date}&timezone=Mars/Base`, { headers: clientHeaders() })).status).toBe(400);

    const key = randomUUID();
    const bad = await api.post(`/public/teams/${team.slug}/${eventType.slug}/bookings`, { startTime: at(date, "09:00"), guestName: "", guestEmail: "nope", guestTimezone: "UTC" }, { headers: { "idempotency-key": key, ...clientHeaders() } });
    expect(bad.status).toBe(400);
    const first = await bookTeam(team.slug, eventType.slug, at(date, "09:00"), { guestEmail: "same@example.com" }, key);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await bookTeam(team.slug, eventType.slug, at(date, "09:00"), { guestEmail: "same@example.com" }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.id).toBe(first.body.id);
    expect((await bookTeam(team.slug, eventType.slug, at(date, "11:00"))).status).toBe(409);
  });

  it("show the team's changes at once: hosts, the event type, the team's link", async () => {
    const date = dateIn(10, "UTC");
    const { hosts, team, eventType } = await roundRobinTeam(date, "09:00", "10:00");
    const [ann, ben, cy] = hosts as [TestHost, TestHost, TestHost];
    expect(await teamSlots(team.slug, eventType.slug, date)).toEqual([at(date, "09:00"), at(date, "09:30")]); // now cached
    // Cy alone, then open later that day: Cy's hours change the team's times.
    expect((await api.patch(`/me/teams/${team.id}/event-types/${eventType.id}`, { hostIds: [cy.id] }, { token: ann.token })).status).toBe(200);
    await openOnly(cy, date, [{ startTime: "13:00", endTime: "14:00" }]);
    expect(await teamSlots(team.slug, eventType.slug, date)).toEqual([at(date, "13:00"), at(date, "13:30")]);
    expect((await api.patch(`/me/teams/${team.id}/event-types/${eventType.id}`, { hostIds: [ben.id], durationMinutes: 60 }, { token: ann.token })).status).toBe(200);
    expect(await teamSlots(team.slug, eventType.slug, date)).toEqual([at(date, "09:00")]);
    const renamed = `${team.slug}-new`;
    expect((await api.patch(`/me/teams/${team.id}`, { slug: renamed }, { token: ann.token })).status).toBe(200);
    expect((await api.get(`/public/teams/${team.slug}/${eventType.slug}`)).status).toBe(404);
    expect(await teamSlots(renamed, eventType.slug, date)).toEqual([at(date, "09:00")]);
  });
});
