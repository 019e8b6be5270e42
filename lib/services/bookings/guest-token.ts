import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { bookingGuestTokens } from "@/db/schema";
import { open, seal } from "@/lib/secret-box";

// The guest's secret of a booking, kept sealed in booking_guest_tokens so later messages (a
// reschedule, a cancellation) can carry the guest's links; the booking row keeps only its hash.
// The messages read it with the booking's facts (facts.ts), in one statement.

/** The purpose the token is sealed for (the name it was first sealed under, so those still open). */
const GUEST_TOKEN_PURPOSE = "outbox:guest-token";

export function sealGuestToken(token: string): string {
  return seal(token, GUEST_TOKEN_PURPOSE);
}

/** A sealed guest token opened, or undefined when it no longer opens (the key was replaced). */
export function openGuestToken(sealed: string): string | undefined {
  return open(sealed, GUEST_TOKEN_PURPOSE);
}

/** The booking's guest token, or undefined when it is not kept (erased) or no longer opens (the key was replaced). */
export async function guestTokenOf(db: Db, bookingId: string): Promise<string | undefined> {
  const [row] = await db.select({ sealed: bookingGuestTokens.sealedToken }).from(bookingGuestTokens).where(eq(bookingGuestTokens.bookingId, bookingId)).limit(1);
  return row === undefined ? undefined : openGuestToken(row.sealed);
}
