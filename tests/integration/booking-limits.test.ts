import { randomUUID } from "node:crypto";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { book, clientHeaders, dateIn, getSlots, guest, insertBookingRow, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { teamWithType } from "../support/teams";

// Booking limits (decisions §16): at most perDay / perWeek non-cancelled bookings of an event type
// per host on the host's local day / ISO week. The slot list stops offering the day or week, the
// booking's re-check refuses it, explain says limit_reached, round robin passes over a host at
// their limit, and a booking being moved does not count against itself.

withTestDatabase();

const as = (h: TestHost) => ({ token: h.token });
const at = (date: string, time: string, zone = "UTC") => DateTime.fromISO(`${date}T${time}`, { zone }).toUTC().toISO({ suppressMilliseconds: true })!;
const explain = (h: TestHost, eventTypeId: string, startTime: string) =>
  api.get(`/me/event-types/${eventTypeId}/explain?startTime=${encodeURIComponent(startTime)}`, as(h));
const starts = async (h: TestHost, slug: string, from: string, to = from) => (await getSlots(h, slug, from, to)).map((s) => s.startTime);

describe("perDay", () => {
  it("stops the day's slots at the limit, refuses one more, explains why, and opens again on a cancel", async () => {
    const host = await createHost({ timezone: "Europe/Berlin" });
    const date = dateIn(5, host.timezone);
    await openOnly(host, date, [{ startTime: "09:00", endTime: "12:00" }]);
    const et = await createEventType(host, { durationMinutes: 30, limits: { perDay: 2 } });
    const other = await createEventType(host, { durationMinutes: 30 });
    const all = await starts(host, et.slug, date);
    expect(all).toHaveLength(6);

    expect((await book(host, et.slug, all[0]!)).status).toBe(201);
    expect(await starts(host, et.slug, date)).toEqual(all.slice(1));
    const second = await book(host, et.slug, all[2]!);
    expect(second.status).toBe(201);
    expect(await starts(host, et.slug, date)).toEqual([]);
    // Another event type of the host has no limit: only its booked times are gone.
    expect(await starts(host, other.slug, date)).toEqual([all[1], all[3], all[4], all[5]]);

    const refused = await book(host, et.slug, all[4]!);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe("slot_unavailable");

    const why = await explain(host, et.id, all[4]!);
    expect(why.body).toEqual({
      startTime: all[4],
      bookable: false,
      reasons: [
        {
          code: "limit_reached",
          period: "day",
          limit: 2,
          count: 2,
          from: date,
          to: date,
          message: `Limit reached: this event type takes at most 2 bookings a day. You have 2 on ${date}.`,
        },
      ],
    });

    expect((await api.post(`/me/bookings/${second.body.id}/cancel`, { reason: "Ill" }, as(host))).status).toBe(200);
    expect(await starts(host, et.slug, date)).toEqual(all.slice(1));
    expect((await explain(host, et.id, all[4]!)).body.bookable).toBe(true);
  });

  it("a reschedule does not count the booking being moved", async () => {
    const host = await createHost({ timezone: "UTC" });
    const date = dateIn(5, host.timezone);
    await openOnly(host, date, [{ startTime: "09:00", endTime: "12:00" }]);
    const et = await createEventType(host, { durationMinutes: 30, limits: { perDay: 1 } });
    const booked = await book(host, et.slug, at(date, "09:00"));
    expect(booked.status).toBe(201);
    const moved = await api.post(`/me/bookings/${booked.body.id}/reschedule`, { startTime: at(date, "10:00") }, as(host));
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    // The guest's own move too.
    const token = booked.body.cancelUrl.split("/").pop();
    const guestMove = await api.post("/public/reschedule", { token, startTime: at(date, "11:00") }, { headers: clientHeaders() });
    expect(guestMove.status, JSON.stringify(guestMove.body)).toBe(200);
    // But the day is still full for anyone else.
    expect((await book(host, et.slug, at(date, "09:30"))).status).toBe(409);
  });
});

describe("perWeek", () => {
  it("counts the host's ISO week, Monday to Sunday", async () => {
    const host = await createHost({ timezone: "America/New_York" });
    // A Monday at least two days ahead, and the Tuesday after it.
    const today = DateTime.now().setZone(host.timezone).startOf("day");
    const monday = today.plus({ days: 2 }).plus({ days: (8 - today.plus({ days: 2 }).weekday) % 7 });
    const [mon, tue, nextMon] = [monday, monday.plus({ days: 1 }), monday.plus({ days: 7 })].map((d) => d.toISODate()!);
    const open = (date: string) => ({ date, available: true, intervals: [{ startTime: "09:00", endTime: "10:00" }] });
    const put = await api.put("/me/availability", { minNoticeHours: 0, maxAdvanceDays: 60, weeklyRules: [], dateOverrides: [open(mon!), open(tue!), open(nextMon!)] }, as(host));
    expect(put.status).toBe(200);
    const et = await createEventType(host, { durationMinutes: 60, limits: { perWeek: 1 } });
    expect(await starts(host, et.slug, mon!, nextMon!)).toEqual([at(mon!, "09:00", host.timezone), at(tue!, "09:00", host.timezone), at(nextMon!, "09:00", host.timezone)]);

    expect((await book(host, et.slug, at(tue!, "09:00", host.timezone))).status).toBe(201);
    // Monday lies before the booking but in its week: closed too. The next Monday is another week.
    expect(await starts(host, et.slug, mon!, nextMon!)).toEqual([at(nextMon!, "09:00", host.timezone)]);
    const why = await explain(host, et.id, at(mon!, "09:00", host.timezone));
    expect(why.body.reasons).toEqual([
      expect.objectContaining({ code: "limit_reached", period: "week", limit: 1, count: 1, from: mon, to: monday.plus({ days: 6 }).toISODate() }),
    ]);
    expect(why.body.reasons[0].message).toContain("at most 1 booking a week");
  });
});

describe("round robin", () => {
  it("passes over a host at their limit though the rule would pick them, and offers nothing once all are full", async () => {
    const date = dateIn(5, "UTC");
    const [ann, ben] = [await createHost({ timezone: "UTC", fullName: "Ann" }), await createHost({ timezone: "UTC", fullName: "Ben" })];
    for (const h of [ann!, ben!]) await openOnly(h, date, [{ startTime: "09:00", endTime: "12:00" }]);
    const { team, eventType } = await teamWithType(ann!, [ben!], { schedulingType: "round_robin", durationMinutes: 30, limits: { perDay: 1 } });
    // Ben had two bookings of the type in the last month: the rule prefers Ann while she has fewer.
    for (const days of [3, 4]) await insertBookingRow(ben!.id, eventType.id, new Date(Date.now() - days * 86_400_000));

    const bookTeam = (startTime: string) =>
      api.post(`/public/teams/${team.slug}/${eventType.slug}/bookings`, { startTime, ...guest() }, { headers: { "idempotency-key": randomUUID(), ...clientHeaders() } });
    const first = await bookTeam(at(date, "09:00"));
    expect(first.status).toBe(201);
    expect(first.body.hostNames).toEqual(["Ann"]);
    // Ann (1) still has fewer than Ben (2), but she is at her limit for the day: Ben takes it.
    const second = await bookTeam(at(date, "10:00"));
    expect(second.status).toBe(201);
    expect(second.body.hostNames).toEqual(["Ben"]);

    const slots = await api.get(`/public/teams/${team.slug}/${eventType.slug}/slots?from=${date}&to=${date}&timezone=UTC`, { headers: clientHeaders() });
    expect(slots.body.slots).toEqual([]);
    expect((await bookTeam(at(date, "11:00"))).status).toBe(409);

    const why = await api.get(`/me/teams/${team.id}/event-types/${eventType.id}/explain?startTime=${encodeURIComponent(at(date, "11:00"))}`, as(ann!));
    expect(why.body.bookable).toBe(false);
    for (const h of why.body.hosts) expect(h.reasons.map((r: { code: string }) => r.code)).toEqual(["limit_reached"]);
    expect(why.body.hosts.find((h: { fullName: string }) => h.fullName === "Ben").reasons[0].message).toContain("Ben has 1 on");
  });
});
