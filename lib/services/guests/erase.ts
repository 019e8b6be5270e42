import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { bookingGuestTokens, bookingHistory, bookingHosts, bookings, calls, idempotencyKeys, webhookDeliveries, webhooks, type UserRow } from "@/db/schema";
import { BOOKING_EMAIL, REMINDER_KINDS } from "@/lib/outbox/kinds";
import { ERASED_NAME, scrubBooking, scrubDelivered, scrubOutbox } from "@/lib/outbox/scrub";
import { BOOKING_IDEMPOTENCY_SCOPE } from "@/lib/services/bookings/create";
import { hashCancelToken } from "@/lib/services/bookings/store";
import { writeForHosts } from "@/lib/services/host-time/writes";
import { guestBookingIds } from "./lookup";

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
  // Under the booking locks of every host of these bookings (a collective one's co-hosts too),
  // taken in one order, as every change of a booking is (bookings/write-booking.ts): the hosts'
  // walks of changes (bookings/changes.ts) must not pass the erasure. The bookings and their
  // hosts are found before the locks, to know which to take, and again under them: a booking
  // made or moved meanwhile may have brought a host not yet locked, and then it runs again.
  let hostIds = [host.id, ...(await hostsOf(db, await guestBookingIds(db, host, email)))];
  for (let attempt = 1; ; attempt++) {
    const locked = new Set(hostIds);
    const done = await writeForHosts(
      db,
      hostIds,
      async (tx) => {
        const ids = await guestBookingIds(tx, host, email, true);
        const unlocked = (await hostsOf(tx, ids)).filter((id) => !locked.has(id));
        if (unlocked.length > 0) return { done: false as const, again: unlocked };
        return { done: true as const, erased: ids.length === 0 ? 0 : await eraseBookings(tx, ids) };
      },
      { lockBookings: true },
    );
    if (done.done) return done.erased;
    if (attempt >= 5) throw new Error(`erasing ${host.id}'s guest: the bookings' hosts kept changing while being locked`);
    hostIds = [...hostIds, ...done.again];
  }
}

/** Every host of these bookings. */
async function hostsOf(db: Db | Tx, bookingIds: string[]): Promise<string[]> {
  if (bookingIds.length === 0) return [];
  const rows = await db.selectDistinct({ userId: bookingHosts.userId }).from(bookingHosts).where(inArray(bookingHosts.bookingId, bookingIds));
  return rows.map((r) => r.userId);
}

/** The erasure itself, of bookings locked for it. */
async function eraseBookings(tx: Tx, ids: string[]): Promise<number> {
  for (const id of ids) {
    // Each booking its own unguessable hash (the column is unique): no link matches it again.
    await tx
      .update(bookings)
      .set({ guestName: ERASED_NAME, guestEmail: "", customAnswers: {}, cancelTokenHash: hashCancelToken(randomBytes(32).toString("base64url")) })
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

  await scrubOutbox(tx, ids, GUEST_BOUND_KINDS);
  const erased = new Set(ids);
  // Delivery logs of the webhooks of these bookings' hosts (a team booking went to every
  // host's endpoints), and in them the messages about these bookings, found by id.
  const deliveries = await tx
    .select({ id: webhookDeliveries.id, payload: webhookDeliveries.payload })
    .from(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.webhookId, tx.select({ id: webhooks.id }).from(webhooks).where(inArray(webhooks.userId, tx.select({ id: bookingHosts.userId }).from(bookingHosts).where(inArray(bookingHosts.bookingId, ids))))),
        or(inArray(sql<string>`${webhookDeliveries.payload} -> 'data' ->> 'bookingId'`, ids), inArray(sql<string>`${webhookDeliveries.payload} -> 'data' ->> 'id'`, ids)),
      ),
    );
  for (const d of deliveries) {
    const payload = scrubDelivered(d.payload, erased);
    if (payload !== d.payload) await tx.update(webhookDeliveries).set({ payload }).where(eq(webhookDeliveries.id, d.id));
  }
  // The stored answers of the requests that made these bookings (replayed on a retry).
  const answers = await tx
    .select({ scope: idempotencyKeys.scope, key: idempotencyKeys.key, body: idempotencyKeys.responseBody })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, BOOKING_IDEMPOTENCY_SCOPE), inArray(sql<string>`${idempotencyKeys.responseBody} ->> 'id'`, ids)));
  for (const a of answers) {
    const body = scrubBooking(a.body, erased);
    if (body !== a.body) await tx.update(idempotencyKeys).set({ responseBody: body }).where(and(eq(idempotencyKeys.scope, a.scope), eq(idempotencyKeys.key, a.key)));
  }
  return ids.length;
}
