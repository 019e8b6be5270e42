import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { bookingHistory, bookingHosts } from "@/db/schema";
import { getDb } from "@/lib/store/database";
import { api } from "../support/api";
import { insertBookingRow } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { as, createTeam, teamWithType } from "../support/teams";

// GET /me/insights (decisions §22): who may ask what, what the query may be, and a small range
// counted by hand across the EU's change to summer time (2027-03-28 in Europe/Berlin).
// insights-property.test.ts compares every figure with a brute-force count on random bookings.

withTestDatabase();

const ZONE = "Europe/Berlin";
const HOUR = 3_600_000;
const local = (date: string, time: string) => DateTime.fromISO(`${date}T${time}`, { zone: ZONE }).toJSDate();

/** A booking of `host` made `leadHours` before its start, written straight into the tables. */
async function booked(host: TestHost, eventTypeId: string, start: Date, leadHours: number, extra: Parameters<typeof insertBookingRow>[4] = {}) {
  const { row } = await insertBookingRow(host.id, eventTypeId, start, 30, { createdAt: new Date(start.getTime() - leadHours * HOUR), ...extra });
  return row;
}

/** Another host of a booking (a collective one's), as its own statement writes it. */
async function alsoHostedBy(booking: Awaited<ReturnType<typeof booked>>, host: TestHost) {
  await (await getDb()).insert(bookingHosts).values({
    bookingId: booking.id,
    userId: host.id,
    blockedStart: booking.blockedStart,
    blockedEnd: booking.blockedEnd,
    startTime: booking.startTime,
    status: booking.status,
    cancelled: booking.status === "cancelled",
  });
}

const insights = (host: TestHost, query: Record<string, string>) => api.get(`/me/insights?${new URLSearchParams(query)}`, as(host));

describe("GET /me/insights", () => {
  it("counts a small range by hand: statuses, holds, days across a DST change, weekday and hour, lead time, hosts", async () => {
    const host = await createHost({ timezone: ZONE, fullName: "Ada Host" });
    const colleague = await createHost({ timezone: "America/New_York", fullName: "Grace Colleague" });
    const stranger = await createHost({ timezone: ZONE });
    const own = await createEventType(host, { title: "Intro call" });
    const { team, eventType: teamType } = await teamWithType(host, [colleague], { title: "Team demo", schedulingType: "collective" });
    const theirs = await createEventType(stranger);

    await booked(host, own.id, local("2027-03-27", "09:00"), 48); // Saturday
    await booked(host, own.id, local("2027-03-28", "10:00"), 5, { status: "cancelled", cancelledBy: "guest" });
    await booked(host, own.id, local("2027-03-28", "23:30"), 12, { status: "pending" }); // Sunday, after the change (+02:00)
    await booked(host, own.id, local("2027-03-29", "00:15"), 24, { noShow: true, previousStartTime: local("2027-03-20", "10:00") }); // Monday
    // A hold being paid, and one released unpaid: neither is a booking.
    await booked(host, own.id, local("2027-03-29", "12:00"), 1, { status: "awaiting_payment", paymentId: "pay_waiting", paymentStatus: "unpaid" });
    await booked(host, own.id, local("2027-03-29", "13:00"), 1, { status: "cancelled", cancelledBy: "system", paymentId: "pay_gone", paymentStatus: "unpaid" });
    // Paid, then cancelled: a booking that was, cancelled.
    const paidThenCancelled = await booked(host, own.id, local("2027-03-29", "15:00"), 2, { status: "cancelled", cancelledBy: "guest", paymentId: "pay_done", paymentStatus: "refunded" });
    await (await getDb()).insert(bookingHistory).values({ bookingId: paidThenCancelled.id, action: "paid", actor: "guest", details: {} });
    const collective = await booked(host, teamType.id, local("2027-03-29", "09:00"), 6);
    await alsoHostedBy(collective, colleague);
    // Outside the range by a minute on each side, and another host's booking inside it.
    await booked(host, own.id, local("2027-03-26", "23:30"), 1);
    await booked(host, own.id, local("2027-03-30", "00:00"), 1);
    await booked(stranger, theirs.id, local("2027-03-28", "12:00"), 1);

    const res = await insights(host, { from: "2027-03-27", to: "2027-03-29" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [first, second] = [
      { ...host, fullName: "Ada Host" },
      { ...colleague, fullName: "Grace Colleague" },
    ].sort((a, b) => a.username.localeCompare(b.username));
    expect(res.body).toEqual({
      from: "2027-03-27",
      to: "2027-03-29",
      timeZone: ZONE,
      totals: { bookings: 6, confirmed: 3, pending: 1, cancelled: 2, rescheduled: 1, noShow: 1 },
      byDay: [
        { date: "2027-03-27", bookings: 1, cancelled: 0, noShow: 0 },
        { date: "2027-03-28", bookings: 2, cancelled: 1, noShow: 0 },
        { date: "2027-03-29", bookings: 3, cancelled: 1, noShow: 1 },
      ],
      byEventType: [
        { eventTypeId: own.id, title: "Intro call", bookings: 5, cancelled: 2, noShow: 1 },
        { eventTypeId: teamType.id, title: "Team demo", bookings: 1, cancelled: 0, noShow: 0 },
      ],
      byWeekdayHour: [
        { weekday: 0, hour: 23, bookings: 1 },
        { weekday: 1, hour: 0, bookings: 1 },
        { weekday: 1, hour: 9, bookings: 1 },
        { weekday: 6, hour: 9, bookings: 1 },
      ],
      // 6, 12, 24 and 48 hours: the median halfway between 12 and 24, p90 70 % of the way from 24 to 48.
      leadTimeHours: { median: 18, p90: 40.8 },
      byHost: [
        { userId: first!.id, username: first!.username, fullName: first!.fullName, bookings: 1 },
        { userId: second!.id, username: second!.username, fullName: second!.fullName, bookings: 1 },
      ],
    });

    // Filters: one event type, one team.
    const ofType = await insights(host, { from: "2027-03-27", to: "2027-03-29", eventTypeId: own.id });
    expect(ofType.body.totals).toEqual({ bookings: 5, confirmed: 2, pending: 1, cancelled: 2, rescheduled: 1, noShow: 1 });
    expect(ofType.body.byHost).toEqual([]);
    const ofTeam = await insights(host, { from: "2027-03-27", to: "2027-03-29", teamId: team.id });
    expect(ofTeam.body.totals).toEqual({ bookings: 1, confirmed: 1, pending: 0, cancelled: 0, rescheduled: 0, noShow: 0 });
    expect(ofTeam.body.byEventType.map((e: { eventTypeId: string }) => e.eventTypeId)).toEqual([teamType.id]);
    const both = await insights(host, { from: "2027-03-27", to: "2027-03-29", teamId: team.id, eventTypeId: own.id });
    expect(both.body.totals.bookings).toBe(0);

    // The colleague hosts the collective booking too, in their own zone's days.
    const theirView = await insights(colleague, { from: "2027-03-29", to: "2027-03-29" });
    expect(theirView.body.totals.bookings).toBe(1);
    expect(theirView.body.byWeekdayHour).toEqual([{ weekday: 1, hour: 3, bookings: 1 }]); // 09:00 Berlin is 03:00 in New York
  });

  it("answers an empty range with every date, zeros and no lead time", async () => {
    const host = await createHost({ timezone: "Australia/Lord_Howe" });
    const res = await insights(host, { from: "2027-10-02", to: "2027-10-04" });
    expect(res.status).toBe(200);
    expect(res.body.byDay.map((d: { date: string }) => d.date)).toEqual(["2027-10-02", "2027-10-03", "2027-10-04"]);
    expect(res.body.totals).toEqual({ bookings: 0, confirmed: 0, pending: 0, cancelled: 0, rescheduled: 0, noShow: 0 });
    expect(res.body.leadTimeHours).toEqual({ median: null, p90: null });
    expect([res.body.byEventType, res.body.byWeekdayHour, res.body.byHost]).toEqual([[], [], []]);
  });

  it("answers 404 for an event type or team the host cannot see, 401 without a token", async () => {
    const host = await createHost();
    const stranger = await createHost();
    const theirs = await createEventType(stranger);
    const theirTeam = await createTeam(stranger);
    const range = { from: "2027-01-01", to: "2027-01-31" };
    const filters: Record<string, string>[] = [{ eventTypeId: theirs.id }, { eventTypeId: "evt_never" }, { teamId: theirTeam.id }, { teamId: "team_never" }];
    for (const filter of filters) {
      const res = await insights(host, { ...range, ...filter });
      expect(res.status, JSON.stringify(filter)).toBe(404);
      expect(res.body.error).toBe("not_found");
    }
    expect((await insights(stranger, { ...range, eventTypeId: theirs.id, teamId: theirTeam.id })).status).toBe(200);
    expect((await api.get(`/me/insights?${new URLSearchParams(range)}`)).status).toBe(401);
  });

  it("refuses a range backwards, longer than 366 days, or without its dates (400)", async () => {
    const host = await createHost();
    const refused: Record<string, string>[] = [{ from: "2027-02-01", to: "2027-01-31" }, { from: "2027-01-01", to: "2028-01-02" }, { from: "2027-01-01" }, { from: "2027-01-01", to: "2027-13-01" }, { from: "2027-01-01", to: "2027-01-02", page: "2" }];
    for (const query of refused) {
      const res = await insights(host, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error).toBe("validation_error");
    }
    // 366 days, a leap year's whole: allowed.
    expect((await insights(host, { from: "2028-01-01", to: "2028-12-31" })).body.byDay).toHaveLength(366);
  });
});
