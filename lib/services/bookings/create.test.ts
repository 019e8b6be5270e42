import { randomUUID } from "node:crypto";
import { and, eq, ne } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Tx } from "@/db";
import { bookings, outboxJobs, type EventTypeRow, type UserRow } from "@/db/schema";
import { listPublicSlotsJson } from "@/lib/services/bookable/slots";
import { rollbackDatabase } from "@/tests/support/rollback";
import { at, bookingInput, insertBooking, insertEventType, insertHost, openOn } from "@/tests/support/rows";
import { createBooking } from "./create";

// Booking limits (decisions §16: at most perDay / perWeek non-cancelled bookings of an event type
// per host, on the host's local day / ISO week) are checked again when a guest books, inside the
// booking's transaction and under the host's lock, whatever the guest's slot list said when it
// was read. The HTTP side of it is tests/integration/booking-limits.test.ts.

const { withRollback } = rollbackDatabase();

const NOW = Date.parse("2031-03-03T08:00:00Z");

function book(tx: Tx, host: UserRow, eventType: EventTypeRow, start: number) {
  return createBooking(tx, { username: host.username, slug: eventType.slug, idempotencyKey: randomUUID(), input: bookingInput(start), now: NOW });
}

async function slotStarts(tx: Tx, host: UserRow, eventType: EventTypeRow, date: string): Promise<number[]> {
  const json = await listPublicSlotsJson(tx, { username: host.username }, eventType.slug, { from: date, to: date, timezone: host.timezone }, NOW);
  return (JSON.parse(json) as { slots: { startTime: string }[] }).slots.map((s) => Date.parse(s.startTime));
}

async function expectRefused(booking: Promise<unknown>) {
  await expect(booking).rejects.toMatchObject({ name: "AppError", code: "slot_unavailable" });
}

/** The event type's bookings that are not cancelled, by start. */
async function booked(tx: Tx, eventType: EventTypeRow): Promise<number[]> {
  const rows = await tx
    .select({ start: bookings.startTime })
    .from(bookings)
    .where(and(eq(bookings.eventTypeId, eventType.id), ne(bookings.status, "cancelled")));
  return rows.map((r) => r.start.getTime()).sort();
}

describe("booking limits at booking time", () => {
  it("perDay: a time the guest's slot list offered is refused once the day has its bookings; nothing is written", () =>
    withRollback(async (tx) => {
      const host = await insertHost(tx, { timezone: "Europe/Berlin" });
      const day = "2031-03-10";
      await openOn(tx, host, day, [["09:00", "12:00"]]);
      const limited = await insertEventType(tx, host, { limits: { perDay: 2 } });
      const other = await insertEventType(tx, host);
      const nine = at(day, "09:00", host.timezone);
      const ten = at(day, "10:00", host.timezone);
      const eleven = at(day, "11:00", host.timezone);

      // The guest reads the day's times while it is still open.
      const list = await slotStarts(tx, host, limited, day);
      expect(list).toContain(eleven);

      expect((await book(tx, host, limited, nine)).booking.status).toBe("confirmed");
      // Meanwhile someone else's booking of the type lands (straight in the table: no cache is told).
      await insertBooking(tx, host, limited, ten);
      const events = (await tx.select().from(outboxJobs).where(eq(outboxJobs.kind, "booking.created"))).length;

      await expectRefused(book(tx, host, limited, eleven));
      expect(await booked(tx, limited)).toEqual([nine, ten]);
      expect(await tx.select().from(outboxJobs).where(eq(outboxJobs.kind, "booking.created"))).toHaveLength(events);
      // The time itself is free: an event type without a limit books it.
      expect((await book(tx, host, other, eleven)).booking.status).toBe("confirmed");
    }));

  it("perDay counts the host's local day, not UTC's", () =>
    withRollback(async (tx) => {
      const host = await insertHost(tx, { timezone: "America/Los_Angeles" }); // UTC−7 in these days
      await openOn(tx, host, "2031-03-10", [["09:00", "23:00"]]);
      await openOn(tx, host, "2031-03-11", [["09:00", "17:00"]]);
      const eventType = await insertEventType(tx, host, { limits: { perDay: 1 } });
      // Monday 20:00 in Los Angeles, Tuesday 03:00 UTC.
      await insertBooking(tx, host, eventType, at("2031-03-10", "20:00", host.timezone));

      // Monday 10:00 there (Monday 17:00 UTC: another UTC day) is the same local day: refused.
      await expectRefused(book(tx, host, eventType, at("2031-03-10", "10:00", host.timezone)));
      // Tuesday 09:00 there (Tuesday 16:00 UTC, the UTC day of the booking) is another local day.
      expect((await book(tx, host, eventType, at("2031-03-11", "09:00", host.timezone))).booking.status).toBe("confirmed");
    }));

  it("perWeek counts the ISO week, Monday to Sunday, in the host's zone", () =>
    withRollback(async (tx) => {
      const host = await insertHost(tx, { timezone: "Europe/Berlin" }); // UTC+1 in these days
      for (const date of ["2031-03-10", "2031-03-16", "2031-03-17"]) await openOn(tx, host, date, [["00:00", "23:30"]]);
      const eventType = await insertEventType(tx, host, { limits: { perWeek: 1 } });
      await insertBooking(tx, host, eventType, at("2031-03-12", "12:00", host.timezone)); // a Wednesday

      // The Monday before it and the Sunday after it are in its week.
      await expectRefused(book(tx, host, eventType, at("2031-03-10", "09:00", host.timezone)));
      await expectRefused(book(tx, host, eventType, at("2031-03-16", "23:00", host.timezone)));
      // Monday 00:00 in Berlin is still Sunday in UTC, but a new week for the host.
      expect((await book(tx, host, eventType, at("2031-03-17", "00:00", host.timezone))).booking.status).toBe("confirmed");
    }));

  it("counts requests waiting for an answer, not cancelled bookings", () =>
    withRollback(async (tx) => {
      const host = await insertHost(tx);
      for (const date of ["2031-03-10", "2031-03-11"]) await openOn(tx, host, date);
      const eventType = await insertEventType(tx, host, { limits: { perDay: 1 } });
      await insertBooking(tx, host, eventType, at("2031-03-10", "09:00"), { status: "cancelled", cancelledBy: "guest", cancelledAt: new Date(NOW) });
      await insertBooking(tx, host, eventType, at("2031-03-11", "09:00"), { status: "pending" });

      expect((await book(tx, host, eventType, at("2031-03-10", "11:00"))).booking.status).toBe("confirmed");
      await expectRefused(book(tx, host, eventType, at("2031-03-11", "11:00")));
    }));
});
