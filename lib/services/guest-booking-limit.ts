import { and, count, gt, min, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { bookings } from "@/db/schema";
import { AppError } from "@/lib/http/errors";
import { rateLimitHeaders } from "@/lib/rate-limit";
import { lockName } from "./booking-store";

export const GUEST_BOOKINGS_PER_HOUR = 5;
const HOUR = 3_600_000;

/**
 * At most 5 bookings per hour per guest email (case-insensitive), as a sliding window over the
 * bookings actually created: replays, rejected slots and invalid requests never count. The
 * transaction-scoped advisory lock makes concurrent bookings of one email take turns, so the
 * count cannot be raced past the limit.
 */
export async function limitGuestBookings(tx: Tx, email: string, now: number): Promise<{ headers: Record<string, string> }> {
  const normalised = email.toLowerCase();
  await lockName(tx, `guest-bookings:${normalised}`);
  const since = new Date(now - HOUR);
  const [row] = await tx
    .select({ made: count(), oldest: min(bookings.createdAt) })
    .from(bookings)
    .where(and(sql`lower(${bookings.guestEmail}) = ${normalised}`, gt(bookings.createdAt, since)));
  const made = row?.made ?? 0;
  const oldest = row?.oldest ? new Date(row.oldest).getTime() : now;
  const resetSeconds = Math.max(1, Math.ceil((oldest + HOUR - now) / 1000));
  const allowed = made < GUEST_BOOKINGS_PER_HOUR;
  const headers = rateLimitHeaders({
    allowed,
    limit: GUEST_BOOKINGS_PER_HOUR,
    remaining: Math.max(0, GUEST_BOOKINGS_PER_HOUR - made - (allowed ? 1 : 0)),
    resetSeconds: allowed && made === 0 ? 3600 : resetSeconds,
  });
  if (!allowed) {
    throw new AppError(
      "rate_limited",
      `Too many bookings for this email: at most ${GUEST_BOOKINGS_PER_HOUR} per hour`,
      { retryAfterSeconds: resetSeconds },
      headers,
    );
  }
  return { headers };
}
