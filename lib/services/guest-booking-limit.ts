import { and, count, gt, min, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { bookings } from "@/db/schema";
import { AppError, type RateLimitState } from "@/lib/errors";
import { lockName } from "./booking-store";

export const GUEST_BOOKINGS_PER_HOUR = 5;
const HOUR = 3_600_000;

/** The guest's window as it stands: bookings made in the last hour, and when the oldest leaves it. */
async function guestWindow(db: Db | Tx, email: string, now: number): Promise<{ made: number; resetSeconds: number }> {
  const [row] = await db
    .select({ made: count(), oldest: min(bookings.createdAt) })
    .from(bookings)
    .where(and(sql`lower(${bookings.guestEmail}) = ${email.toLowerCase()}`, gt(bookings.createdAt, new Date(now - HOUR))));
  const made = row?.made ?? 0;
  const oldest = row?.oldest ? new Date(row.oldest).getTime() : now;
  return { made, resetSeconds: made === 0 ? 3600 : Math.max(1, Math.ceil((oldest + HOUR - now) / 1000)) };
}

/**
 * At most 5 bookings per hour per guest email (case-insensitive), as a sliding window over the
 * bookings actually created: replays, rejected slots and invalid requests never count. The
 * transaction-scoped advisory lock makes concurrent bookings of one email take turns, so the
 * count cannot be raced past the limit. Returns the state counting this booking.
 */
export async function limitGuestBookings(tx: Tx, email: string, now: number): Promise<RateLimitState> {
  await lockName(tx, `guest-bookings:${email.toLowerCase()}`);
  const { made, resetSeconds } = await guestWindow(tx, email, now);
  const allowed = made < GUEST_BOOKINGS_PER_HOUR;
  const state = {
    allowed,
    limit: GUEST_BOOKINGS_PER_HOUR,
    remaining: Math.max(0, GUEST_BOOKINGS_PER_HOUR - made - (allowed ? 1 : 0)),
    resetSeconds,
  };
  if (!allowed) {
    throw new AppError(
      "rate_limited",
      `Too many bookings for this email: at most ${GUEST_BOOKINGS_PER_HOUR} per hour`,
      { retryAfterSeconds: resetSeconds },
      { rateLimit: state },
    );
  }
  return state;
}

/** The guest's window without counting anything: what a replayed request reports. */
export async function peekGuestBookings(db: Db, email: string, now: number): Promise<RateLimitState> {
  const { made, resetSeconds } = await guestWindow(db, email, now);
  return {
    allowed: made < GUEST_BOOKINGS_PER_HOUR,
    limit: GUEST_BOOKINGS_PER_HOUR,
    remaining: Math.max(0, GUEST_BOOKINGS_PER_HOUR - made),
    resetSeconds,
  };
}
