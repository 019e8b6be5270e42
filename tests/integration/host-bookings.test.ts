import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { outboxJobs } from "@/db/schema";
import { api } from "../support/api";
import { book, dateIn, getSlots, insertBookingRow, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";

withTestDatabase();

async function eventsOf(kind: string, bookingId: string) {
  const rows = await (await getDb()).select().from(outboxJobs).where(eq(outboxJobs.kind, kind));
  return rows.map((r) => r.payload as any).filter((p) => (p.data.bookingId ?? p.data.id) === bookingId);
}

/** A host with one open day and `count` bookings made by guests through the public API. */
async function hostWithBookings(count: number, fields: Record<string, unknown> = {}) {
  const host = await createHost({ timezone: "Europe/Berlin" });
  const et = await createEventType(host, { durationMinutes: 30, ...fields });
  const date = dateIn(8, host.timezone);
  await openOnly(host, date, [{ startTime: "09:00", endTime: "17:00" }]);
  const slots = await getSlots(host, et.slug, date);
  const made = [];
  for (let i = 0; i < count; i++) {
    const res = await book(host, et.slug, slots[i * 2]!.startTime);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    made.push(res.body);
  }
  return { host, et, date, slots, made };
}

/** A booking that already took place, written directly: the API cannot book the past. */
function pastBooking(host: TestHost, eventTypeId: string) {
  return insertBookingRow(host.id, eventTypeId, new Date(Date.now() - 2 * 86_400_000));
}

describe("POST /public/cancel", () => {
  it("cancels with the token from cancelUrl, frees the slot, and answers the same when repeated", async () => {
    const { host, et, date, made } = await hostWithBookings(1);
    const token = made[0].cancelUrl.split("/").pop();
    const res = await api.post("/public/cancel", { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: made[0].id, status: "cancelled", message: expect.stringContaining("cancelled") });
    expect((await api.post("/public/cancel", { token })).body).toEqual(res.body);
    expect((await getSlots(host, et.slug, date)).map((s) => s.startTime)).toContain(made[0].startTime);
    expect(await eventsOf("booking.cancelled", made[0].id)).toEqual([
      expect.objectContaining({ event: "booking.cancelled", data: { bookingId: made[0].id, cancelledBy: "guest", hosts: [expect.objectContaining({ userId: host.id, username: host.username })], team: null, seat: null, series: null } }),
    ]);
    const list = await api.get("/me/bookings?status=cancelled", { token: host.token });
    expect(list.body.data[0]).toMatchObject({ id: made[0].id, status: "cancelled", cancelledBy: "guest" });
  });

  it("is 404 for an unknown token, 400 without one, and 409 for a booking in the past", async () => {
    expect((await api.post("/public/cancel", { token: "x".repeat(43) })).status).toBe(404);
    expect((await api.post("/public/cancel", {})).status).toBe(400);
    const { host, et } = await hostWithBookings(0);
    const past = await pastBooking(host, et.id);
    const res = await api.post("/public/cancel", { token: past.token });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("booking_not_modifiable");
  });
});

describe("GET /me/bookings", () => {
  it("lists ascending by start with pagination, filters by status and by dates in the host's zone", async () => {
    const { host, date, made } = await hostWithBookings(3);
    await api.post(`/me/bookings/${made[1].id}/cancel`, {}, { token: host.token });
    const all = await api.get("/me/bookings", { token: host.token });
    expect(all.status).toBe(200);
    expect(all.body.data.map((b: any) => b.id)).toEqual(made.map((b) => b.id));
    expect(all.body.pagination).toEqual({ page: 1, limit: 20, total: 3 });
    expect(all.body.data[0]).toEqual({
      id: made[0].id,
      eventType: { id: expect.any(String), title: "Intro call" },
      guestName: "Grace Guest",
      guestEmail: made[0].guestEmail,
      startTime: made[0].startTime,
      endTime: made[0].endTime,
      guestTimezone: "Europe/Berlin",
      status: "confirmed",
      location: "",
      customAnswers: {},
      createdAt: expect.stringMatching(/Z$/),
      // The database's stamp, as the create's answer had it.
      updatedAt: made[0].updatedAt,
      cancellationReason: null,
      cancelledBy: null,
      previousStartTime: null,
      noShow: false,
      hosts: [{ userId: host.id, username: host.username, fullName: "Test Host" }],
      team: null,
      seat: null,
      series: null,
      payment: null,
    });

    const page2 = await api.get("/me/bookings?limit=2&page=2", { token: host.token });
    expect(page2.body.data.map((b: any) => b.id)).toEqual([made[2].id]);
    expect(page2.body.pagination).toEqual({ page: 2, limit: 2, total: 3 });

    const confirmed = await api.get("/me/bookings?status=confirmed", { token: host.token });
    expect(confirmed.body.data.map((b: any) => b.id)).toEqual([made[0].id, made[2].id]);

    expect((await api.get(`/me/bookings?from=${date}&to=${date}`, { token: host.token })).body.pagination.total).toBe(3);
    const dayAfter = dateIn(9, host.timezone);
    expect((await api.get(`/me/bookings?from=${dayAfter}`, { token: host.token })).body.data).toEqual([]);
    expect((await api.get(`/me/bookings?to=${dateIn(7, host.timezone)}`, { token: host.token })).body.data).toEqual([]);

    // Another host sees none of them.
    const other = await createHost();
    expect((await api.get("/me/bookings", { token: other.token })).body).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0 } });
  });

  it("answers 400 for limit outside 1–100, page below 1, an unknown status and a bad date", async () => {
    const host = await createHost();
    for (const q of ["limit=0", "limit=101", "page=0", "page=-1", "limit=abc", "status=done", "from=2027-13-01", "from=2027-03-05&to=2027-03-01"]) {
      const res = await api.get(`/me/bookings?${q}`, { token: host.token });
      expect(res.status, q).toBe(400);
      expect(res.body.error).toBe("validation_error");
    }
    expect((await api.get("/me/bookings?limit=100", { token: host.token })).status).toBe(200);
  });
});

describe("POST /me/bookings/{id}/cancel", () => {
  it("cancels with a reason, records the event, and refuses a second cancel with 409", async () => {
    const { host, made } = await hostWithBookings(1);
    const res = await api.post(`/me/bookings/${made[0].id}/cancel`, { reason: "Out sick" }, { token: host.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: made[0].id, status: "cancelled", cancellationReason: "Out sick", cancelledBy: "host" });
    expect(await eventsOf("booking.cancelled", made[0].id)).toEqual([
      expect.objectContaining({ data: { bookingId: made[0].id, cancelledBy: "host", hosts: [expect.objectContaining({ userId: host.id, username: host.username })], team: null, seat: null, series: null } }),
    ]);
    const again = await api.post(`/me/bookings/${made[0].id}/cancel`, {}, { token: host.token });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("booking_not_modifiable");
    // The guest's link still answers: the booking is cancelled.
    const guest = await api.post("/public/cancel", { token: made[0].cancelUrl.split("/").pop() });
    expect(guest.body.status).toBe("cancelled");
  });

  it("is 404 for another host's booking and an unknown id, 409 for a past booking, 400 for unknown fields", async () => {
    const { host, et, made } = await hostWithBookings(1);
    const other = await createHost();
    expect((await api.post(`/me/bookings/${made[0].id}/cancel`, {}, { token: other.token })).status).toBe(404);
    expect((await api.post("/me/bookings/bkg_unknown/cancel", {}, { token: host.token })).status).toBe(404);
    expect((await api.post(`/me/bookings/${made[0].id}/cancel`, { reasons: "x" }, { token: host.token })).status).toBe(400);
    const past = await pastBooking(host, et.id);
    expect((await api.post(`/me/bookings/${past.row.id}/cancel`, {}, { token: host.token })).body.error).toBe("booking_not_modifiable");
    const list = await api.get("/me/bookings?status=confirmed", { token: host.token });
    expect(list.body.pagination.total).toBe(2);
  });
});

describe("POST /me/bookings/{id}/reschedule", () => {
  it("moves the booking to a new slot, even one overlapping its own old time", async () => {
    const { host, et, date, slots, made } = await hostWithBookings(1, { durationMinutes: 60, slotIntervalMinutes: 30 });
    // 60-minute slots every 30 minutes: the next start overlaps the booking's own hour.
    const target = slots[1]!.startTime;
    const res = await api.post(`/me/bookings/${made[0].id}/reschedule`, { startTime: target }, { token: host.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      id: made[0].id,
      status: "confirmed",
      startTime: target,
      endTime: new Date(Date.parse(target) + 3_600_000).toISOString().replace(".000", ""),
      previousStartTime: made[0].startTime,
    });
    expect(await eventsOf("booking.rescheduled", made[0].id)).toEqual([
      expect.objectContaining({
        event: "booking.rescheduled",
        data: { bookingId: made[0].id, rescheduledBy: "host", previousStartTime: made[0].startTime, previousEndTime: made[0].endTime, startTime: target, endTime: res.body.endTime, hosts: [expect.objectContaining({ userId: host.id, username: host.username })], team: null },
      }),
    ]);
    const open = (await getSlots(host, et.slug, date)).map((s) => s.startTime);
    expect(open).not.toContain(slots[0]!.startTime); // overlaps the new hour
    expect(open).not.toContain(target);
    expect(open).toContain(slots[3]!.startTime);
    // Accepts any offset on input.
    const withOffset = new Date(Date.parse(slots[4]!.startTime)).toISOString().replace("Z", "+00:00");
    expect((await api.post(`/me/bookings/${made[0].id}/reschedule`, { startTime: withOffset }, { token: host.token })).status).toBe(200);
  });

  it("answers 409 for a taken or off-grid start and a cancelled booking, 404 for another host", async () => {
    const { host, slots, made } = await hostWithBookings(2);
    const taken = await api.post(`/me/bookings/${made[0].id}/reschedule`, { startTime: made[1].startTime }, { token: host.token });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe("slot_unavailable");
    const offGrid = new Date(Date.parse(slots[5]!.startTime) + 7 * 60_000).toISOString();
    expect((await api.post(`/me/bookings/${made[0].id}/reschedule`, { startTime: offGrid }, { token: host.token })).body.error).toBe("slot_unavailable");
    const other = await createHost();
    expect((await api.post(`/me/bookings/${made[0].id}/reschedule`, { startTime: slots[5]!.startTime }, { token: other.token })).status).toBe(404);
    await api.post(`/me/bookings/${made[0].id}/cancel`, {}, { token: host.token });
    const cancelled = await api.post(`/me/bookings/${made[0].id}/reschedule`, { startTime: slots[5]!.startTime }, { token: host.token });
    expect(cancelled.body.error).toBe("booking_not_modifiable");
    expect((await api.post(`/me/bookings/${made[1].id}/reschedule`, { startTime: "soon" }, { token: host.token })).status).toBe(400);
    // Nothing moved.
    const list = await api.get("/me/bookings", { token: host.token });
    expect(list.body.data.map((b: any) => b.startTime)).toEqual([made[0].startTime, made[1].startTime]);
  });
});

describe("GET /me/bookings filters for the dashboard", () => {
  it("by event type, and upcoming (soonest first) or past (most recent first)", async () => {
    const { host, et, made } = await hostWithBookings(2);
    const other = await createEventType(host);
    const old = await pastBooking(host, et.id);
    const older = await insertBookingRow(host.id, other.id, new Date(Date.now() - 5 * 86_400_000));
    const ids = async (query: string) => (await api.get(`/me/bookings?${query}`, { token: host.token })).body.data.map((b: any) => b.id);

    expect(await ids("when=upcoming")).toEqual([made[0].id, made[1].id]);
    expect(await ids("when=past")).toEqual([old.row.id, older.row.id]);
    expect(await ids(`eventTypeId=${other.id}`)).toEqual([older.row.id]);
    expect(await ids(`eventTypeId=${et.id}&when=past`)).toEqual([old.row.id]);
    expect((await api.get("/me/bookings?when=soon", { token: host.token })).status).toBe(400);
  });
});

describe("GET /me/bookings?q= finds a guest by name or email", () => {
  it("matches a part of either, whatever the case; %, _ and \\ are plain characters; totals and pages follow", async () => {
    const host = await createHost({ timezone: "Europe/Berlin" });
    const et = await createEventType(host, { durationMinutes: 30 });
    const day = 86_400_000;
    const guests = [
      { guestName: "Grace Hopper", guestEmail: "grace@navy.example" },
      { guestName: "Ada Lovelace", guestEmail: "ada@engines.example" },
      { guestName: "Alan Turing", guestEmail: "GRACE.fan@example.com" },
      { guestName: "100% Sure", guestEmail: "a_b@example.com" },
      { guestName: "Back\\slash", guestEmail: "axb@example.com" },
    ];
    const rows = [];
    for (const [i, g] of guests.entries()) rows.push((await insertBookingRow(host.id, et.id, new Date(Date.now() + (i + 2) * day), 30, g)).row.id);
    // Another host's guest of the same name is never found.
    const other = await createHost();
    await insertBookingRow(other.id, (await createEventType(other)).id, new Date(Date.now() + 2 * day), 30, { guestName: "Grace Other" });
    const list = async (query: string) => {
      const res = await api.get(`/me/bookings?${query}`, { token: host.token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { ids: res.body.data.map((b: any) => b.id), total: res.body.pagination.total };
    };
    const q = (text: string, more = "") => list(`q=${encodeURIComponent(text)}${more}`);

    expect(await q("grace")).toEqual({ ids: [rows[0], rows[2]], total: 2 });
    expect(await q("  LOVELACE ")).toEqual({ ids: [rows[1]], total: 1 });
    expect(await q("engines.example")).toEqual({ ids: [rows[1]], total: 1 });
    expect(await q("%")).toEqual({ ids: [rows[3]], total: 1 });
    expect(await q("_")).toEqual({ ids: [rows[3]], total: 1 });
    expect(await q("\\")).toEqual({ ids: [rows[4]], total: 1 });
    expect(await q("nobody")).toEqual({ ids: [], total: 0 });
    // Blank is no search at all.
    expect((await q("   ")).total).toBe(5);
    // With the other filters and pages: the total counts the matches, not the host's bookings.
    expect(await q("grace", "&limit=1&page=2")).toEqual({ ids: [rows[2]], total: 2 });
    expect(await q("grace", "&when=upcoming&status=confirmed")).toEqual({ ids: [rows[0], rows[2]], total: 2 });
    expect(await q("grace", `&eventTypeId=${et.id}&to=${dateIn(2, host.timezone)}`)).toEqual({ ids: [rows[0]], total: 1 });
    await api.post(`/me/bookings/${rows[0]}/cancel`, {}, { token: host.token });
    expect(await q("grace", "&status=cancelled")).toEqual({ ids: [rows[0]], total: 1 });
  });

  it("answers 400 for a search longer than 200 characters", async () => {
    const host = await createHost();
    const res = await api.get(`/me/bookings?q=${"x".repeat(201)}`, { token: host.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("validation_error");
    expect(JSON.stringify(res.body)).toContain("Must be at most 200 characters");
    expect((await api.get(`/me/bookings?q=${"x".repeat(200)}`, { token: host.token })).status).toBe(200);
  });
});
