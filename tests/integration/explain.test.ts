import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { busyIntervals, calendarConnections, calendars } from "@/db/schema";
import { api } from "../support/api";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost } from "../support/factories";

withTestDatabase();

const explain = (token: string, eventTypeId: string, startTime: string) =>
  api.get(`/me/event-types/${eventTypeId}/explain?startTime=${encodeURIComponent(startTime)}`, { token });

describe("GET /me/event-types/{id}/explain", () => {
  it("agrees with the slot list, and names the booking and the calendar that block a time", async () => {
    const host = await createHost({ timezone: "Europe/Berlin" });
    const et = await createEventType(host, { durationMinutes: 30, bufferAfterMinutes: 15 });
    const date = dateIn(5, host.timezone);
    await openOnly(host, date, [{ startTime: "09:00", endTime: "12:00" }]);
    const slots = await getSlots(host, et.slug, date);
    for (const slot of slots) {
      const res = await explain(host.token, et.id, slot.startTime);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ startTime: slot.startTime, bookable: true, reasons: [] });
    }

    const booked = await book(host, et.slug, slots[0]!.startTime);
    expect(booked.status).toBe(201);
    const taken = await explain(host.token, et.id, slots[0]!.startTime);
    expect(taken.body.bookable).toBe(false);
    expect(taken.body.reasons).toEqual([
      expect.objectContaining({ code: "booking_conflict", bookingId: booked.body.id, start: slots[0]!.startTime, message: expect.stringContaining("overlaps another booking") }),
    ]);
    // 09:30 is free itself, but its 15 minutes after? No: the booking's own buffer (until 09:45) blocks it.
    expect((await explain(host.token, et.id, slots[1]!.startTime)).body.reasons.map((r: { code: string }) => r.code)).toEqual(["booking_conflict"]);

    // A busy calendar event, as a calendar sync would store it.
    const db = await getDb();
    const connectionId = `cal_${randomUUID()}`;
    // Its busy data last matched the provider three minutes ago (decisions §17: the reason says how old it is).
    const busyAsOf = new Date(Date.now() - 3 * 60_000 - 5_000);
    busyAsOf.setMilliseconds(0);
    await db.insert(calendarConnections).values({ id: connectionId, userId: host.id, provider: "provider_c", email: "ada@icloud.example", credentialsEncrypted: "x", busyAsOf });
    const calendarId = `cal_${randomUUID()}`;
    await db.insert(calendars).values({ id: calendarId, connectionId, userId: host.id, externalId: "home", name: "Home" });
    await db.insert(busyIntervals).values({ calendarId, userId: host.id, startTime: new Date(slots[4]!.startTime), endTime: new Date(slots[4]!.endTime) });
    const busy = await explain(host.token, et.id, slots[4]!.startTime);
    expect(busy.body.reasons).toEqual([
      expect.objectContaining({
        code: "calendar_conflict",
        calendarId,
        calendarName: "Home",
        busyAsOf: busyAsOf.toISOString().replace(".000Z", "Z"),
        message: expect.stringMatching(/^Your calendar “Home” is busy from .+ \(checked 3 minutes ago\)\.$/),
      }),
    ]);

    const offGrid = await explain(host.token, et.id, new Date(Date.parse(slots[2]!.startTime) + 10 * 60_000).toISOString());
    expect(offGrid.body.reasons).toEqual([
      // 10:30 is blocked by its own buffer against the calendar event at 11:00: the next open start is 11:30.
      expect.objectContaining({ code: "not_on_grid", stepMinutes: 30, nearest: [slots[2]!.startTime, slots[5]!.startTime] }),
    ]);
  });

  it("answers 400 for a bad startTime, 404 for another host's event type, 401 without a token", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    expect((await explain(host.token, et.id, "tomorrow")).status).toBe(400);
    expect((await explain(host.token, et.id, "0001-01-01T00:00:00Z")).status).toBe(400);
    const other = await createHost();
    expect((await explain(other.token, et.id, "2027-03-15T13:00:00Z")).status).toBe(404);
    expect((await api.get(`/me/event-types/${et.id}/explain?startTime=2027-03-15T13:00:00Z`)).status).toBe(401);
  });
});
