import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { bookingGuestTokens, bookingHistory, bookings, calls, idempotencyKeys, webhookDeliveries, type UserRow } from "@/db/schema";
import { BOOKING_EMAIL, REMINDER_KINDS } from "@/lib/outbox/kinds";
import { ERASED_NAME, mentions, scrubOutbox, scrubValue, type Erasure } from "@/lib/outbox/scrub";
import { hashCancelToken } from "@/lib/services/bookings/store";
import { guestBookingsOf } from "./lookup";

// DELETE /me/guests/{email} (decisions §16): the guest's name, address and answers leave every
// booking of theirs the host hosts, and every record that copied them: job payloads still to be
// sent and finished ones (webhook bodies, booking events), webhook delivery logs, stored
// idempotent answers, the numbers of calls placed to them. Their links stop working (the sealed
// token goes, the hash is replaced by one of a secret no one holds). The times stay: the
// bookings still block what they blocked, so availability stays right.

/** Jobs that exist only to reach the guest: dropped, not scrubbed, while still to be sent. */
const GUEST_BOUND_KINDS = [BOOKING_EMAIL, ...REMINDER_KINDS];

/** Erases the guest's data from the host's bookings of them; how many bookings it touched. */
export async function eraseGuest(db: Db, host: UserRow, email: string): Promise<number> {
  return db.transaction(async (tx) => {
    const found = await tx
      .select({
        id: bookings.id,
        guestName: bookings.guestName,
        guestEmail: bookings.guestEmail,
        customAnswers: bookings.customAnswers,
        // A reason the guest gave when cancelling is their text too.
        guestReason: sql<string | null>`case when ${bookings.cancelledBy} = 'guest' then ${bookings.cancellationReason} end`,
      })
      .from(bookings)
      .where(guestBookingsOf(host, email))
      .for("update");
    if (found.length === 0) return 0;
    const erasure: Erasure = {
      emails: [...new Set([email.trim(), ...found.map((b) => b.guestEmail)].filter((e) => e !== ""))],
      names: [...new Set(found.map((b) => b.guestName).filter((n) => n !== ERASED_NAME))],
      answers: [...new Set(found.flatMap((b) => [...Object.values(b.customAnswers), b.guestReason ?? ""]).filter((a) => a.trim() !== ""))],
      bookingIds: found.map((b) => b.id),
    };
    const ids = erasure.bookingIds;

    for (const id of ids) {
      // Each booking its own unguessable hash (the column is unique): no link matches it again.
      await tx
        .update(bookings)
        .set({ guestName: ERASED_NAME, guestEmail: "", customAnswers: {}, cancelTokenHash: hashCancelToken(randomBytes(32).toString("base64url")), updatedAt: new Date() })
        .where(eq(bookings.id, id));
    }
    // What the guest wrote when cancelling is theirs too: on the booking and in its history.
    await tx.update(bookings).set({ cancellationReason: null }).where(and(inArray(bookings.id, ids), eq(bookings.cancelledBy, "guest")));
    await tx
      .update(bookingHistory)
      .set({ details: sql`${bookingHistory.details} - 'reason'` })
      .where(and(inArray(bookingHistory.bookingId, ids), eq(bookingHistory.actor, "guest")));
    await tx.delete(bookingGuestTokens).where(inArray(bookingGuestTokens.bookingId, ids));
    await tx.update(calls).set({ toNumber: "" }).where(inArray(calls.bookingId, ids));

    await scrubOutbox(tx, erasure, GUEST_BOUND_KINDS);
    const deliveries = await tx
      .select({ id: webhookDeliveries.id, payload: webhookDeliveries.payload })
      .from(webhookDeliveries)
      .where(mentions(sql`${webhookDeliveries.payload}`, erasure));
    for (const d of deliveries) {
      const payload = scrubValue(d.payload, erasure);
      if (payload !== d.payload) await tx.update(webhookDeliveries).set({ payload }).where(eq(webhookDeliveries.id, d.id));
    }
    const answers = await tx
      .select({ scope: idempotencyKeys.scope, key: idempotencyKeys.key, body: idempotencyKeys.responseBody })
      .from(idempotencyKeys)
      .where(mentions(sql`${idempotencyKeys.responseBody}`, erasure));
    for (const a of answers) {
      const body = scrubValue(a.body, erasure);
      if (body !== a.body) await tx.update(idempotencyKeys).set({ responseBody: body }).where(sql`${idempotencyKeys.scope} = ${a.scope} and ${idempotencyKeys.key} = ${a.key}`);
    }
    return ids.length;
  });
}
