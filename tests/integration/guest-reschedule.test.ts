import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { outboxJobs } from "@/db/schema";
import { api } from "../support/api";
import { book, dateIn, getSlots, insertBookingRow, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost } from "../support/factories";

withTestDatabase();

const tokenOf = (url: string) => url.split("/").pop()!;

describe("POST /public/reschedule", () => {
  it("moves the booking with the guest's token, frees the old time and records who moved it", async () => {
    const host = await createHost({ timezone: "Europe/Berlin" });
    const et = await createEventType(host, { title: "Intro call" });
    const date = dateIn(6, host.timezone);
    await openOnly(host, date);
    const slots = await getSlots(host, et.slug, date);
    const made = await book(host, et.slug, slots[0]!.startTime, { guestTimezone: "America/New_York" });
    expect(made.status).toBe(201);
    expect(made.body.rescheduleUrl).toBe(`http://booking.test/reschedule/${tokenOf(made.body.cancelUrl)}`);

    const res = await api.post("/public/reschedule", { token: tokenOf(made.body.rescheduleUrl), startTime: slots[3]!.startTime });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      id: made.body.id,
      status: "confirmed",
      startTime: slots[3]!.startTime,
      endTime: slots[3]!.endTime,
      previousStartTime: slots[0]!.startTime,
      message: expect.stringMatching(/^Your booking "Intro call" with Test Host is moved to .+ \(America\/New_York\)\.$/),
    });
    const after = (await getSlots(host, et.slug, date)).map((s) => s.startTime);
    expect(after).toContain(slots[0]!.startTime);
    expect(after).not.toContain(slots[3]!.startTime);

    const events = (await (await getDb()).select().from(outboxJobs).where(eq(outboxJobs.kind, "booking.rescheduled"))).map((r) => r.payload as any);
    expect(events.find((e) => e.data.bookingId === made.body.id)?.data).toEqual({
      bookingId: made.body.id,
      rescheduledBy: "guest",
      previousStartTime: slots[0]!.startTime,
      previousEndTime: slots[0]!.endTime,
      startTime: slots[3]!.startTime,
      endTime: slots[3]!.endTime,
      hosts: [{ userId: host.id, username: host.username, fullName: expect.any(String) }],
      team: null,
    });
  });

  it("409 for a taken time or a cancelled or started booking, 404 for an unknown token, 400 for bad input", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const date = dateIn(6, host.timezone);
    await openOnly(host, date);
    const slots = await getSlots(host, et.slug, date);
    const mine = await book(host, et.slug, slots[0]!.startTime);
    await book(host, et.slug, slots[2]!.startTime);
    const token = tokenOf(mine.body.rescheduleUrl);

    const taken = await api.post("/public/reschedule", { token, startTime: slots[2]!.startTime });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe("slot_unavailable");
    const offGrid = await api.post("/public/reschedule", { token, startTime: new Date(Date.parse(slots[1]!.startTime) + 60_000).toISOString() });
    expect(offGrid.body.error).toBe("slot_unavailable");

    expect((await api.post("/public/reschedule", { token: "nope", startTime: slots[1]!.startTime })).status).toBe(404);
    expect((await api.post("/public/reschedule", { token, startTime: "soon" })).status).toBe(400);
    expect((await api.post("/public/reschedule", { token })).status).toBe(400);

    await api.post("/public/cancel", { token });
    const cancelled = await api.post("/public/reschedule", { token, startTime: slots[1]!.startTime });
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.error).toBe("booking_not_modifiable");

    const past = await insertBookingRow(host.id, et.id, new Date(Date.now() - 3_600_000));
    const started = await api.post("/public/reschedule", { token: past.token, startTime: slots[1]!.startTime });
    expect(started.status).toBe(409);
    expect(started.body.error).toBe("booking_not_modifiable");
  });
});
