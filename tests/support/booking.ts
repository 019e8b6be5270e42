import { randomUUID } from "node:crypto";
import { DateTime } from "luxon";
import { expect } from "vitest";
import { getDb } from "@/lib/store/database";
import { bookings } from "@/db/schema";
import { hashCancelToken } from "@/lib/services/bookings/store";
import { api } from "./api";
import { unique, type TestHost } from "./factories";

/** A date `days` from today in `zone`, YYYY-MM-DD. */
export function dateIn(days: number, zone: string): string {
  return DateTime.now().setZone(zone).plus({ days }).toISODate()!;
}

let ipCounter = 0;
/** A client address of its own, so per-IP limits of one test never touch another's. */
export function clientHeaders(): Record<string, string> {
  ipCounter += 1;
  return { "x-forwarded-for": `198.51.${(process.pid % 200) + 1}.${ipCounter % 250}` };
}

/** Availability with no weekly hours and `date` open for the given intervals: fully predictable slots. */
export async function openOnly(host: TestHost, date: string, intervals = [{ startTime: "09:00", endTime: "12:00" }], extra: Record<string, unknown> = {}) {
  const res = await api.put(
    "/me/availability",
    { minNoticeHours: 0, maxAdvanceDays: 60, weeklyRules: [], dateOverrides: [{ date, available: true, intervals }], ...extra },
    { token: host.token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

export async function getSlots(host: TestHost, slug: string, from: string, to = from, timezone = host.timezone) {
  const res = await api.get(`/public/${host.username}/${slug}/slots?from=${from}&to=${to}&timezone=${encodeURIComponent(timezone)}`, {
    headers: clientHeaders(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.slots as { startTime: string; endTime: string; displayStart: string; displayEnd: string }[];
}

export function guest(fields: Record<string, unknown> = {}) {
  return { guestName: "Grace Guest", guestEmail: `${unique("guest")}@example.com`, guestTimezone: "Europe/Berlin", customAnswers: {}, ...fields };
}

export async function book(host: TestHost, slug: string, startTime: string, fields: Record<string, unknown> = {}, key: string = randomUUID()) {
  return api.post(`/public/${host.username}/${slug}/bookings`, { startTime, ...guest(fields) }, { headers: { "idempotency-key": key, ...clientHeaders() } });
}

/**
 * A booking written straight into the table, past every check of the API: for the past, which
 * the API cannot book, and for states the API has no verb for. Returns the row and its token.
 */
export async function insertBookingRow(hostId: string, eventTypeId: string, start: Date, minutes = 30, extra: Partial<typeof bookings.$inferInsert> = {}) {
  const end = new Date(start.getTime() + minutes * 60_000);
  const token = randomUUID();
  const [row] = await (await getDb())
    .insert(bookings)
    .values({
      id: `bkg_${randomUUID()}`,
      hostId,
      eventTypeId,
      status: "confirmed",
      startTime: start,
      endTime: end,
      blockedStart: start,
      blockedEnd: end,
      guestName: "Direct Guest",
      guestEmail: "direct@example.com",
      guestTimezone: "UTC",
      cancelTokenHash: hashCancelToken(token),
      ...extra,
    })
    .returning();
  return { row: row!, token };
}
