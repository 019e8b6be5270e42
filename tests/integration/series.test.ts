import { randomUUID } from "node:crypto";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { book, getSlots } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { teamWithType } from "../support/teams";

// Recurring bookings (decisions §19): a guest books up to maxOccurrences starts, everyWeeks apart,
// at the first one's wall-clock time in the host's zone; all or nothing.

withTestDatabase();

/** Weekday hours 09:00–12:00 every day of the week, so any weekly series has its hours. */
async function openEveryDay(host: TestHost) {
  const weeklyRules = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: "09:00", endTime: "12:00" }));
  const res = await api.put("/me/availability", { minNoticeHours: 0, maxAdvanceDays: 60, weeklyRules, dateOverrides: [] }, { token: host.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function recurringHost(zone = "America/New_York") {
  const host = await createHost({ timezone: zone });
  await openEveryDay(host);
  const et = await createEventType(host, { slug: "weekly", durationMinutes: 60, recurrence: { everyWeeks: 1, maxOccurrences: 8 } });
  const date = DateTime.now().setZone(zone).plus({ days: 3 }).toISODate()!;
  const [first] = await getSlots(host, et.slug, date);
  return { host, et, first: first!.startTime };
}

describe("a recurring event type", () => {
  it("books every occurrence at the same local time, each a booking of the series", async () => {
    const { host, et, first } = await recurringHost();
    const res = await book(host, et.slug, first, { occurrences: 4 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.series.id).toMatch(/^ser_/);
    const starts = res.body.series.occurrences.map((o: { startTime: string }) => o.startTime);
    expect(starts).toHaveLength(4);
    expect(starts[0]).toBe(first);
    const local = starts.map((s: string) => DateTime.fromISO(s).setZone(host.timezone));
    for (const [k, t] of local.entries()) {
      expect(t.toFormat("HH:mm")).toBe(local[0]!.toFormat("HH:mm"));
      expect(Math.round(t.diff(local[0]!.startOf("day"), "days").days)).toBe(7 * k);
    }
    const list = await api.get(`/me/bookings?eventTypeId=${et.id}&when=upcoming`, { token: host.token });
    expect(list.body.data.map((b: { startTime: string }) => b.startTime).sort()).toEqual(starts);
    for (const b of list.body.data) expect(b.series.id).toBe(res.body.series.id);
  });

  it("books nothing when one occurrence is taken, and names it (409 details.unavailable)", async () => {
    const { host, et, first } = await recurringHost();
    const iso = (t: DateTime) => t.toUTC().toISO({ suppressMilliseconds: true })!;
    const third = iso(DateTime.fromISO(first).setZone(host.timezone).plus({ weeks: 2 }));
    expect((await book(host, et.slug, third)).status).toBe(201);
    const clash = await book(host, et.slug, first, { occurrences: 4 });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe("slot_unavailable");
    expect(clash.body.details.unavailable).toEqual([third]);
    expect((await api.get(`/me/bookings?eventTypeId=${et.id}`, { token: host.token })).body.data).toHaveLength(1);

    // An hour later every week is free: the series is booked whole, and a series over it is refused whole.
    const later = iso(DateTime.fromISO(first).plus({ hours: 1 }));
    const made = await book(host, et.slug, later, { occurrences: 3 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const over = await book(host, et.slug, later, { occurrences: 5 });
    expect(over.status).toBe(409);
    expect(over.body.details.unavailable).toEqual(made.body.series.occurrences.map((o: { startTime: string }) => o.startTime));
    expect((await api.get(`/me/bookings?eventTypeId=${et.id}`, { token: host.token })).body.data).toHaveLength(4);
  });

  it("refuses a series of a type that does not recur, or longer than its most occurrences, at occurrences", async () => {
    const { host, et, first } = await recurringHost();
    const plain = await createEventType(host, { slug: "plain", durationMinutes: 30 });
    const notRecurring = await book(host, plain.slug, first, { occurrences: 2 });
    expect(notRecurring.status).toBe(400);
    expect(notRecurring.body.details.issues[0].path).toBe("occurrences");
    const tooMany = await book(host, et.slug, first, { occurrences: 9 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details.issues[0].path).toBe("occurrences");
    for (const occurrences of [0, 25, 2.5, "2"]) expect((await book(host, et.slug, first, { occurrences })).status).toBe(400);
    const list = await api.get(`/me/bookings`, { token: host.token });
    expect(list.body.data).toHaveLength(0);
  });

  it("cancels this occurrence, or this and the following ones, by the guest's link and by the host", async () => {
    const { host, et, first } = await recurringHost();
    const made = await book(host, et.slug, first, { occurrences: 5 });
    expect(made.status).toBe(201);
    const ids: string[] = made.body.series.occurrences.map((o: { id: string }) => o.id);
    const statuses = async () => {
      const list = await api.get(`/me/bookings?eventTypeId=${et.id}`, { token: host.token });
      const byId = new Map(list.body.data.map((b: { id: string; status: string }) => [b.id, b.status]));
      return ids.map((id) => byId.get(id));
    };
    // The guest's link is the first occurrence's: "this" takes only it.
    const token = made.body.cancelUrl.split("/").pop();
    expect((await api.post("/public/cancel", { token, scope: "this" })).status).toBe(200);
    expect(await statuses()).toEqual(["cancelled", "confirmed", "confirmed", "confirmed", "confirmed"]);
    // The host cancels the third and every one after it.
    const following = await api.post(`/me/bookings/${ids[2]}/cancel`, { scope: "following", reason: "Moving away" }, { token: host.token });
    expect(following.status, JSON.stringify(following.body)).toBe(200);
    expect(following.body.series.occurrences.map((o: { status: string }) => o.status)).toEqual(["cancelled", "confirmed", "cancelled", "cancelled", "cancelled"]);
    expect(await statuses()).toEqual(["cancelled", "confirmed", "cancelled", "cancelled", "cancelled"]);
    expect((await api.post(`/me/bookings/${ids[1]}/cancel`, { scope: "sometimes" }, { token: host.token })).status).toBe(400);
    expect(await statuses()).toEqual(["cancelled", "confirmed", "cancelled", "cancelled", "cancelled"]);
  });

  it("round robin gives the whole series one host, free for every occurrence", async () => {
    const ann = await createHost({ timezone: "Europe/Berlin" });
    const ben = await createHost({ timezone: "Europe/Berlin" });
    for (const h of [ann, ben]) await openEveryDay(h);
    const { team, eventType } = await teamWithType(ann, [ben], { schedulingType: "round_robin", durationMinutes: 60, recurrence: { everyWeeks: 2, maxOccurrences: 6 } });
    const date = DateTime.now().setZone("Europe/Berlin").plus({ days: 3 }).toISODate()!;
    const slots = await api.get(`/public/teams/${team.slug}/${eventType.slug}/slots?from=${date}&to=${date}&timezone=Europe/Berlin`);
    const first = slots.body.slots[0].startTime as string;
    // Ann is busy in the third occurrence's week (a booking of her own): only Ben can take the series.
    const own = await createEventType(ann, { slug: "own", durationMinutes: 60 });
    const third = DateTime.fromISO(first).setZone("Europe/Berlin").plus({ weeks: 4 }).toUTC().toISO({ suppressMilliseconds: true })!;
    expect((await book(ann, own.slug, third)).status).toBe(201);
    for (let i = 0; i < 2; i++) {
      const res = await api.post(`/public/teams/${team.slug}/${eventType.slug}/bookings`, { startTime: first, occurrences: 3, guestName: "G", guestEmail: `g${i}@example.com`, guestTimezone: "Europe/Berlin" }, { headers: { "idempotency-key": randomUUID() } });
      if (i === 0) {
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        const mine = await api.get(`/me/bookings?eventTypeId=${eventType.id}`, { token: ben.token });
        expect(mine.body.data).toHaveLength(3);
        for (const b of mine.body.data) expect(b.hosts.map((h: { userId: string }) => h.userId)).toEqual([ben.id]);
      } else {
        // Ben now holds those times, Ann is busy in one week: nobody can take the whole series.
        expect(res.status).toBe(409);
        expect(res.body.details.unavailable.length).toBeGreaterThan(0);
      }
    }
  });

  it("a series that needs approval is confirmed or declined whole, from any of its occurrences", async () => {
    const { host, et, first } = await recurringHost();
    await api.patch(`/me/event-types/${et.id}`, { requiresConfirmation: true }, { token: host.token });
    const asked = await book(host, et.slug, first, { occurrences: 3 });
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    expect(asked.body.series.occurrences.map((o: { status: string }) => o.status)).toEqual(["pending", "pending", "pending"]);
    const confirmed = await api.post(`/me/bookings/${asked.body.id}/confirm`, {}, { token: host.token });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.series.occurrences.map((o: { status: string }) => o.status)).toEqual(["confirmed", "confirmed", "confirmed"]);

    const later = DateTime.fromISO(first).plus({ hours: 1 }).toUTC().toISO({ suppressMilliseconds: true })!;
    const other = await book(host, et.slug, later, { occurrences: 2 });
    expect(other.status).toBe(201);
    const declined = await api.post(`/me/bookings/${other.body.id}/decline`, { reason: "Full this term" }, { token: host.token });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(declined.body.series.occurrences.map((o: { status: string }) => o.status)).toEqual(["cancelled", "cancelled"]);
  });

  it("previews every date of a series in the guest's zone, with the ones not free, before booking", async () => {
    const { host, et, first } = await recurringHost();
    const third = DateTime.fromISO(first).setZone(host.timezone).plus({ weeks: 2 }).toUTC().toISO({ suppressMilliseconds: true })!;
    expect((await book(host, et.slug, third)).status).toBe(201);
    const path = `/public/${host.username}/${et.slug}/series`;
    const res = await api.get(`${path}?startTime=${first}&occurrences=4&timezone=Asia/Tokyo`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.timezone).toBe("Asia/Tokyo");
    expect(res.body.occurrences.map((o: { available: boolean }) => o.available)).toEqual([true, true, false, true]);
    expect(res.body.occurrences[2].startTime).toBe(third);
    expect(res.body.occurrences[0].displayStart).toMatch(/\+09:00$/);
    // What the preview says is what the booking decides.
    const booked = await book(host, et.slug, first, { occurrences: 4 });
    expect(booked.body.details.unavailable).toEqual([third]);
    for (const bad of ["occurrences=1", "occurrences=9", "occurrences=two", "occurrences=3&extra=1"]) {
      const refused = await api.get(`${path}?startTime=${first}&timezone=UTC&${bad}`);
      expect(refused.status, bad).toBe(400);
    }
    const plain = await createEventType(host, { slug: "plain-one", durationMinutes: 30 });
    expect((await api.get(`/public/${host.username}/${plain.slug}/series?startTime=${first}&occurrences=2&timezone=UTC`)).status).toBe(400);
    expect((await api.get(`/public/${host.username}/nope/series?startTime=${first}&occurrences=2&timezone=UTC`)).status).toBe(404);
  });
});
