import "server-only";
import type { Tx } from "@/db";
import { runStatements, type Statement } from "@/db/client";
import { AppError } from "@/lib/errors";
import { nameLock } from "@/lib/store/locks";

export const GUEST_BOOKINGS_PER_HOUR = 5;
const HOUR = 3_600_000;

/** The bookings of the guest's email that count against the limit: `made` of them. */
export type GuestWindow = { made: number };

/**
 * The email's bookings made in the last hour that still stand. A booking that no longer stands
 * does not count, whoever ended it (decisions §8): the guest with their own link, the host (a
 * cancel, or a declined request) or the system (an expired request; all of these set the status
 * to cancelled). Otherwise anyone could lock a stranger's email out for an hour by booking five
 * times in it (on a free account of their own, as its host) and cancelling.
 */
function windowStatement(email: string, now: number): Statement {
  return {
    text: `select count(*)::int as made
           from bookings where lower(guest_email) = $1::text and created_at > $2::text::timestamptz
             and status <> 'cancelled'`,
    params: [email.toLowerCase(), new Date(now - HOUR).toISOString()],
  };
}

/**
 * Takes the guest's lock and reads their window, both sent at once, behind whatever the caller
 * sent before on the transaction (runStatements): the caller may decide on it later.
 */
export async function readGuestWindowLocked(tx: Tx, email: string, now: number): Promise<GuestWindow> {
  const [, [row]] = await runStatements(tx)<[{ locked: string }[], { made: number }[]]>([nameLock(`guest-bookings:${email.toLowerCase()}`), windowStatement(email, now)]);
  return { made: row?.made ?? 0 };
}

/**
 * At most 5 bookings per hour per guest email (case-insensitive), as a sliding window over the
 * bookings actually created that still stand: replays, rejected slots, invalid requests and
 * cancelled bookings never count. The window must be read under the guest's transaction-scoped
 * advisory lock (readGuestWindowLocked), so that concurrent bookings of one email take turns and
 * the count cannot be raced past the limit. Throws 429 when the email is at the limit.
 *
 * Nothing of the email's count reaches the answer (no X-RateLimit-* of this limit, on any
 * answer): whoever books may type anyone's address, and must not learn how many bookings that
 * address made, or when its oldest one leaves the window. The refusal says only that the email
 * is at the limit, and to come back within the hour (a fixed Retry-After of the whole window).
 */
export function admitGuestBooking(window: GuestWindow): void {
  if (window.made < GUEST_BOOKINGS_PER_HOUR) return;
  throw new AppError(
    "rate_limited",
    `Too many bookings for this email address: at most ${GUEST_BOOKINGS_PER_HOUR} an hour`,
    { retryAfterSeconds: HOUR / 1000 },
  );
}
