import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { outboxJobs, seatCounts } from "@/db/schema";
import { api } from "../support/api";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost } from "../support/factories";
import { as, join, createTeam, createTeamEventType } from "../support/teams";

// Group sessions (decisions §19): up to `seats.max` guests per start, each a booking of their own;
// the host's time blocked once; the capacity held by the database (seat_counts, migration 0028).

withTestDatabase();

async function seatedHost(max = 3, showRemaining = true) {
  const host = await createHost();
  const et = await createEventType(host, { slug: "class", durationMinutes: 60, seats: { max, showRemaining } });
  const other = await createEventType(host, { slug: "one-to-one", durationMinutes: 30 });
  const date = dateIn(5, host.timezone);
  await openOnly(host, date);
  return { host, et, other, date };
}

const tokenOf = (url: string) => url.split("/").pop()!;

describe("a seated event type", () => {
  it("offers a start to max guests, says how many seats are left, then takes the start away", async () => {
    const { host, et, date } = await seatedHost(3);
    const [first] = await getSlots(host, et.slug, date);
    expect(first).toMatchObject({ seatsRemaining: 3 });

    const one = await book(host, et.slug, first!.startTime);
    expect(one.status, JSON.stringify(one.body)).toBe(201);
    expect(one.body.seat).toEqual({ taken: 1, max: 3 });
    expect((await getSlots(host, et.slug, date))[0]).toMatchObject({ startTime: first!.startTime, seatsRemaining: 2 });

    const two = await book(host, et.slug, first!.startTime);
    const three = await book(host, et.slug, first!.startTime);
    expect([two.status, three.status]).toEqual([201, 201]);
    expect(three.body.seat).toEqual({ taken: 3, max: 3 });
    expect((await getSlots(host, et.slug, date)).map((s) => s.startTime)).not.toContain(first!.startTime);

    const fourth = await book(host, et.slug, first!.startTime);
    expect(fourth.status).toBe(409);
    expect(fourth.body.error).toBe("slot_unavailable");

    // Each guest is a booking of their own; the host's list shows every seat with the start's count.
    const list = await api.get(`/me/bookings?eventTypeId=${et.id}`, { token: host.token });
    expect(list.body.data).toHaveLength(3);
    for (const b of list.body.data) expect(b.seat).toEqual({ taken: 3, max: 3 });

    // A guest who cancels frees their seat, and only theirs.
    const cancelled = await api.post("/public/cancel", { token: tokenOf(two.body.cancelUrl) });
    expect(cancelled.status).toBe(200);
    expect((await getSlots(host, et.slug, date))[0]).toMatchObject({ startTime: first!.startTime, seatsRemaining: 1 });
  });

  it("hides the count when showRemaining is off", async () => {
    const { host, et, date } = await seatedHost(3, false);
    const [first] = await getSlots(host, et.slug, date);
    expect(first).not.toHaveProperty("seatsRemaining");
  });

  it("blocks the host's time once: no other event type takes a seated start, and no other seated start overlaps it", async () => {
    const { host, et, other, date } = await seatedHost(3);
    const [first] = await getSlots(host, et.slug, date);
    expect((await book(host, et.slug, first!.startTime)).status).toBe(201);
    const otherSlots = (await getSlots(host, other.slug, date)).map((s) => s.startTime);
    expect(otherSlots).not.toContain(first!.startTime);
    const taken = await book(host, other.slug, first!.startTime);
    expect(taken.status).toBe(409);

    // A 60-minute class every 30 minutes: 09:30 overlaps the 09:00 class and is not offered.
    await api.patch(`/me/event-types/${et.id}`, { slotIntervalMinutes: 30 }, { token: host.token });
    const starts = (await getSlots(host, et.slug, date)).map((s) => s.startTime);
    const half = new Date(Date.parse(first!.startTime) + 30 * 60_000).toISOString().replace(".000Z", "Z");
    expect(starts).toContain(first!.startTime);
    expect(starts).not.toContain(half);
    expect((await book(host, et.slug, half)).status).toBe(409);
  });

  it("refuses the same email twice on one start (409 conflict) and takes it again on another start", async () => {
    const { host, et, date } = await seatedHost(5);
    const [first, second] = await getSlots(host, et.slug, date);
    const email = "twice@example.com";
    expect((await book(host, et.slug, first!.startTime, { guestEmail: email })).status).toBe(201);
    const again = await book(host, et.slug, first!.startTime, { guestEmail: "TWICE@example.com" });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("conflict");
    expect((await book(host, et.slug, second!.startTime, { guestEmail: email })).status).toBe(201);
  });

  it("keeps the seats taken when the host lowers max, and refuses new ones until below it", async () => {
    const { host, et, date } = await seatedHost(3);
    const [first] = await getSlots(host, et.slug, date);
    for (let i = 0; i < 3; i++) expect((await book(host, et.slug, first!.startTime)).status).toBe(201);
    const lowered = await api.patch(`/me/event-types/${et.id}`, { seats: { max: 2, showRemaining: true } }, { token: host.token });
    expect(lowered.status).toBe(200);
    const list = await api.get(`/me/bookings?eventTypeId=${et.id}`, { token: host.token });
    expect(list.body.data.filter((b: { status: string }) => b.status === "confirmed")).toHaveLength(3);
    expect((await book(host, et.slug, first!.startTime)).status).toBe(409);
  });

  it("explains a full start as seats_full", async () => {
    const { host, et, date } = await seatedHost(2);
    const [first] = await getSlots(host, et.slug, date);
    await book(host, et.slug, first!.startTime);
    await book(host, et.slug, first!.startTime);
    const res = await api.get(`/me/event-types/${et.id}/explain?startTime=${first!.startTime}`, { token: host.token });
    expect(res.status).toBe(200);
    expect(res.body.bookable).toBe(false);
    expect(res.body.reasons).toEqual([expect.objectContaining({ code: "seats_full", taken: 2, max: 2 })]);
  });

  it("refuses seats on a round-robin event type and bad seat settings, at their field", async () => {
    const owner = await createHost();
    const mate = await createHost();
    const team = await createTeam(owner);
    await join(owner, team.id, mate);
    const rr = await api.post(`/me/teams/${team.id}/event-types`, { slug: "rr", title: "RR", durationMinutes: 30, schedulingType: "round_robin", seats: { max: 4 } }, as(owner));
    expect(rr.status).toBe(400);
    expect(rr.body.details.issues[0].path).toBe("seats");
    const collective = await createTeamEventType(owner, team.id, { schedulingType: "collective", seats: { max: 4 } });
    expect(collective.seats).toEqual({ max: 4, showRemaining: true });
    for (const seats of [{ max: 1 }, { max: 1001 }, { max: 2.5 }, { max: 4, extra: true }]) {
      const res = await api.post("/me/event-types", { slug: "bad", title: "Bad", durationMinutes: 30, seats }, as(owner));
      expect(res.status, JSON.stringify(seats)).toBe(400);
    }
  });

  it("moves a guest's seat to another start with a free seat, and counts both starts right", async () => {
    const { host, et, date } = await seatedHost(2);
    const [first, second] = await getSlots(host, et.slug, date);
    const mover = await book(host, et.slug, first!.startTime);
    await book(host, et.slug, second!.startTime);
    await book(host, et.slug, second!.startTime);
    // The second start is full: no move there.
    const refused = await api.post("/public/reschedule", { token: tokenOf(mover.body.rescheduleUrl), startTime: second!.startTime });
    expect(refused.status).toBe(409);
    const third = (await getSlots(host, et.slug, date)).find((s) => s.startTime !== first!.startTime)!;
    expect(third.startTime).not.toBe(second!.startTime);
    const moved = await api.post("/public/reschedule", { token: tokenOf(mover.body.rescheduleUrl), startTime: third.startTime });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const slots = await getSlots(host, et.slug, date);
    expect(slots.find((s) => s.startTime === first!.startTime)).toMatchObject({ seatsRemaining: 2 });
    expect(slots.find((s) => s.startTime === third.startTime)).toMatchObject({ seatsRemaining: 1 });
    const counts = await (await getDb()).select().from(seatCounts);
    const taken = Object.fromEntries(counts.filter((c) => c.seatKey.startsWith(et.id)).map((c) => [c.seatKey.split("@")[1], c.taken]));
    expect(taken).toEqual({ [new Date(first!.startTime).toISOString()]: 0, [new Date(second!.startTime).toISOString()]: 2, [new Date(third.startTime).toISOString()]: 1 });
  });

  it("announces each seat as a booking.created of its own, with its seat", async () => {
    const { host, et, date } = await seatedHost(4);
    const [first] = await getSlots(host, et.slug, date);
    const a = await book(host, et.slug, first!.startTime);
    const b = await book(host, et.slug, first!.startTime);
    const events = (await (await getDb()).select().from(outboxJobs).where(eq(outboxJobs.kind, "booking.created"))).map((r) => r.payload as { bookingId: string; data: { seat: unknown } });
    const mine = events.filter((e) => [a.body.id, b.body.id].includes(e.bookingId));
    expect(mine.map((e) => [e.bookingId, e.data.seat])).toEqual(
      expect.arrayContaining([
        [a.body.id, { taken: 1, max: 4 }],
        [b.body.id, { taken: 2, max: 4 }],
      ]),
    );
  });

  it("erases two guests of one start without touching the other seats", async () => {
    const { host, et, date } = await seatedHost(3);
    const [first] = await getSlots(host, et.slug, date);
    await book(host, et.slug, first!.startTime, { guestEmail: "one@example.com" });
    await book(host, et.slug, first!.startTime, { guestEmail: "two@example.com" });
    await book(host, et.slug, first!.startTime, { guestEmail: "three@example.com" });
    for (const email of ["one@example.com", "two@example.com"]) {
      const erased = await api.delete(`/me/guests/${encodeURIComponent(email)}`, { token: host.token });
      expect(erased.status, JSON.stringify(erased.body)).toBe(204);
    }
    const list = await api.get(`/me/bookings?eventTypeId=${et.id}`, { token: host.token });
    expect(list.body.data.map((b: { guestEmail: string }) => b.guestEmail).sort()).toEqual(["", "", "three@example.com"]);
    expect((await getSlots(host, et.slug, date)).find((s) => s.startTime === first!.startTime)).toBeUndefined();
  });
});
