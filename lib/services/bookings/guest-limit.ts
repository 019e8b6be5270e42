import "server-only";
import type { Db, Tx } from "@/db";
import { runStatements, type Statement } from "@/db/client";
import { AppError, type RateLimitState } from "@/lib/errors";
import { nameLock } from "@/lib/store/locks";

export const GUEST_BOOKINGS_PER_HOUR = 5;
const HOUR = 3_600_000;

type GuestWindow = { made: number; resetSeconds: number };
type WindowRow = { made: number; oldest: number | null };

/**
 * Bookings the email made in the last hour, and when the oldest of them was made (epoch ms).
 * Bookings the guest cancelled with their own link do not count (decisions §8): otherwise anyone
 * could lock a stranger's email out for an hour by booking and cancelling five times in it.
 */
function windowStatement(email: string, now: number): Statement {
  return {
    text: `select count(*)::int as made, floor(extract(epoch from min(created_at)) * 1000)::float8 as oldest
           from bookings where lower(guest_email) = $1::text and created_at > $2::text::timestamptz
             and (cancelled_by is distinct from 'guest')`,
    params: [email.toLowerCase(), new Date(now - HOUR).toISOString()],
  };
}

/** The guest's window as it stands: bookings made in the last hour, and when the oldest leaves it. */
function windowOf(row: WindowRow | undefined, now: number): GuestWindow {
  const made = row?.made ?? 0;
  const oldest = row?.oldest ?? now;
  return { made, resetSeconds: made === 0 ? 3600 : Math.max(1, Math.ceil((oldest + HOUR - now) / 1000)) };
}

/**
 * Takes the guest's lock and reads their window, both sent at once, behind whatever the caller
 * sent before on the transaction (runStatements): the caller may decide on it later.
 */
export async function readGuestWindowLocked(tx: Tx, email: string, now: number): Promise<GuestWindow> {
  const [, [row]] = await runStatements(tx)<[{ locked: string }[], WindowRow[]]>([nameLock(`guest-bookings:${email.toLowerCase()}`), windowStatement(email, now)]);
  return windowOf(row, now);
}

/**
 * At most 5 bookings per hour per guest email (case-insensitive), as a sliding window over the
 * bookings actually created: replays, rejected slots, invalid requests and bookings cancelled
 * through their own guest link never count. The
 * window must be read under the guest's transaction-scoped advisory lock (readGuestWindowLocked),
 * so that concurrent bookings of one email take turns and the count cannot be raced past the
 * limit. Returns the state counting this booking, or throws 429.
 */
export function admitGuestBooking(window: GuestWindow): RateLimitState {
  const { made, resetSeconds } = window;
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
  const [[row]] = await runStatements(db)<[WindowRow[]]>([windowStatement(email, now)]);
  const { made, resetSeconds } = windowOf(row, now);
  return {
    allowed: made < GUEST_BOOKINGS_PER_HOUR,
    limit: GUEST_BOOKINGS_PER_HOUR,
    remaining: Math.max(0, GUEST_BOOKINGS_PER_HOUR - made),
    resetSeconds,
  };
}
