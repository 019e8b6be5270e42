import "server-only";
import { and, eq, gt, inArray, ne, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { bookings, eventTypes, users, type BookingRow, type CustomQuestion, type UserRow } from "@/db/schema";
import { paymentOf, toBooking, type BookingDto } from "@/lib/dto";
import { notFound } from "@/lib/errors";
import { messagesOf } from "@/lib/i18n/catalogs";
import { andList, fill } from "@/lib/i18n/fill";
import { asLocale, INTL_TAG, type Locale } from "@/lib/i18n/locales";
import { formatMoney } from "@/lib/payments/money";
import { sentenceMoment } from "@/lib/time/in-words";
import { assertModifiable, getBookingForHostOrThrow, hashCancelToken } from "./store";
import { enqueueBookingEvent, type ToldTogether } from "@/lib/outbox/booking-events";
import { isoUtc } from "@/lib/time/instants";
import { loadPeopleOf, peopleView, type BookingPeople } from "./people";
import { writeBooking, writeBookings } from "./write-booking";
import { GUEST, hostActor, recordHistory, type Actor } from "./history";
import { afterHoldCancelled } from "./checkout";
import { decideRefund, paidTermsOf, refundReasonOf } from "./refunds";

/**
 * What a cancel is: a plain cancel, or the host declining a request; `only` cancels the booking
 * only while it still has that status (a decline and the system's expiry: `pending`).
 */
type CancelKind = { declined?: boolean; only?: "pending" };

/**
 * Sets the booking cancelled, if it still is not (a decline and the system's expiry: if it is
 * still pending), and records booking.cancelled and the history entry with it (for every host).
 * Returns the row as it is after, and whether this call cancelled it. Under the booking locks
 * of its hosts (writeBooking), as every change of a booking is.
 */
export async function markCancelled(
  db: Db,
  booking: BookingRow,
  by: Actor,
  reason: string | null,
  now: number,
  kind: CancelKind = {},
): Promise<{ row: BookingRow; changed: boolean }> {
  return writeBooking(db, booking.id, (tx, people) => cancelUnderLocks(tx, booking, people, by, reason, now, kind));
}

/**
 * markCancelled's change, inside a transaction that holds the booking's hosts' locks. A paid
 * booking's money follows the rules (decisions §20, refunds.ts): the refund is decided in the
 * same update. A booking still awaiting its payment was never told of: its cancel ends the hold
 * without an event, and closes the Checkout once none of its payment's bookings waits.
 */
async function cancelUnderLocks(tx: Tx, booking: BookingRow, people: BookingPeople, by: Actor, reason: string | null, now: number, kind: CancelKind, told: ToldTogether = {}) {
  const hostIds = people.hosts.length > 0 ? people.hosts.map((h) => h.userId) : [booking.hostId];
  const paid = await paidTermsOf(tx, booking);
  const refund = paid?.paymentStatus === "paid" && paid.status !== "cancelled" ? refundReasonOf(by, kind.declined === true, booking.startTime, paid.terms.refundableUntilHours, now) : null;
  const [row] = await tx
    .update(bookings)
    .set({
      status: "cancelled",
      cancelledBy: by.actor,
      cancellationReason: reason,
      cancelledAt: new Date(now),
      // The invitation's CANCEL supersedes every REQUEST sent before it.
      sequence: sql`${bookings.sequence} + 1`,
      ...(refund ? { paymentStatus: "refunded" as const } : {}),
    })
    // Conditional: of two concurrent cancels (or a confirm and a decline) exactly one changes the row and writes the event.
    .where(and(eq(bookings.id, booking.id), kind.only ? eq(bookings.status, kind.only) : ne(bookings.status, "cancelled")))
    .returning();
  if (!row) return { row: (await tx.select().from(bookings).where(eq(bookings.id, booking.id)))[0]!, changed: false };
  const declined = kind.declined ? { declined: true } : {};
  await recordHistory(tx, row.id, "cancelled", by, now, { reason, ...declined });
  if (paid?.status === "awaiting_payment") {
    await afterHoldCancelled(tx, paid.terms.id, now);
    return { row, changed: true };
  }
  if (refund) await decideRefund(tx, { paymentId: paid!.terms.id, bookingId: row.id, amount: row.priceAmount!, currency: paid!.terms.currency, reason: refund, by, now });
  const payment = paymentOf(row);
  await enqueueBookingEvent(tx, "booking.cancelled", row, { hostIds }, now, { bookingId: row.id, cancelledBy: by.actor, ...declined, ...peopleView(people), ...(payment ? { payment } : {}) }, told);
  return { row, changed: true };
}

/** Which bookings a cancel takes (decisions §19): the one, or with `following` every later occurrence of its series that has not started. */
export type CancelScope = "this" | "following";

/**
 * Cancels the booking and, with `following`, the later occurrences of its series that are still
 * upcoming and not cancelled, in one transaction under all their hosts' locks: all or none.
 * Returns the booking's row as it is after, and whether this call cancelled it.
 */
async function cancelInScope(db: Db, booking: BookingRow, scope: CancelScope, by: Actor, reason: string | null, now: number) {
  // A series not paid yet is one hold: cancelling any of it ends all of it (decisions §20).
  if (booking.status === "awaiting_payment" && booking.seriesId !== null) {
    const all = await db.select().from(bookings).where(and(eq(bookings.seriesId, booking.seriesId), eq(bookings.status, "awaiting_payment")));
    return markAllCancelled(db, [booking, ...all.filter((b) => b.id !== booking.id)], by, reason, now, {});
  }
  if (scope === "this" || booking.seriesId === null) return markCancelled(db, booking, by, reason, now);
  const later = (await laterOccurrences(db, booking, now)).filter((b) => b.status !== "cancelled");
  return markAllCancelled(db, [booking, ...later], by, reason, now, {});
}

/** The occurrences of the booking's series after it that have not started yet (none outside a series). */
export async function laterOccurrences(db: Db, booking: BookingRow, now: number): Promise<BookingRow[]> {
  if (booking.seriesId === null) return [];
  return db
    .select()
    .from(bookings)
    .where(and(eq(bookings.seriesId, booking.seriesId), gt(bookings.startTime, booking.startTime), gt(bookings.startTime, new Date(now))));
}

/**
 * markCancelled for several bookings (a series' occurrences, the first given first) in one
 * transaction under all their hosts' locks: all or none. Returns the first booking's row as it is
 * after, and whether this call cancelled it.
 */
export async function markAllCancelled(db: Db, all: BookingRow[], by: Actor, reason: string | null, now: number, kind: CancelKind) {
  const [booking] = all;
  const ids = all.map((b) => b.id);
  return writeBookings(db, ids, async (tx, people) => {
    // Read again under the locks: what each occurrence is now, and so what the message tells.
    const rows = await tx.select().from(bookings).where(inArray(bookings.id, ids)).orderBy(bookings.startTime, bookings.id);
    const still = (b: BookingRow) => (kind.only ? b.status === kind.only : b.status !== "cancelled");
    const others = rows.filter((b) => b.id !== booking!.id && still(b));
    const mine = rows.find((b) => b.id === booking!.id) ?? booking!;
    const cancel = (b: BookingRow, told: ToldTogether) => cancelUnderLocks(tx, b, people.get(b.id) ?? { hosts: [], team: null }, by, reason, now, kind, told);
    // One message tells of them all (decisions §19): the first occurrence's event lists every date
    // cancelled, each as it will be (its SEQUENCE one up); the others' events name it and send no
    // email (effects.ts). Were the first already cancelled, each would tell of itself.
    const tellsOf = [mine, ...others].map((b) => ({ bookingId: b.id, startTime: isoUtc(b.startTime), endTime: isoUtc(b.endTime), sequence: b.sequence + 1 }));
    const first = await cancel(mine, others.length > 0 ? { tellsOf } : {});
    for (const b of others) await cancel(b, first.changed ? { toldWith: mine.id } : {});
    return first;
  });
}

/** POST /me/bookings/{id}/cancel: a host (any host of a team booking) cancels an upcoming booking. */
export async function cancelBookingAsHost(db: Db, host: UserRow, bookingId: string, reason: string | undefined, now: number, scope: CancelScope = "this"): Promise<BookingDto> {
  const { booking, eventType } = await getBookingForHostOrThrow(db, host, bookingId);
  assertModifiable(booking, now);
  const { row, changed } = await cancelInScope(db, booking, scope, hostActor(host), reason ?? null, now);
  if (!changed && row.cancelledBy !== "host") assertModifiable(row, now); // the guest cancelled it a moment ago
  return toBooking(row, eventType, await loadPeopleOf(db, row.id));
}

export type GuestCancellation = { id: string; status: "cancelled"; message: string };

export type GuestBooking = {
  booking: BookingRow;
  title: string;
  /** Who the guest meets: the host, or every host of a collective booking ("Ann and Ben"). */
  hostName: string;
  hostAvatarUrl: string | null;
  /** Where "book another time" leads: the host's page, or the team's for a team booking. */
  homePath: string;
  /** Whose page that is: the host's name or the team's. */
  homeName: string;
  /** The event type's owner in the public API's paths: the host's username or teams/{teamSlug}. */
  owner: string;
  /** How many days ahead the host takes bookings: how far the reschedule page's calendar goes. */
  hostMaxAdvanceDays: number;
  eventSlug: string;
  eventActive: boolean;
  questions: CustomQuestion[];
};

/** The booking a guest's cancel token belongs to, with what the guest needs to recognise it. */
export async function findGuestBooking(db: Db, token: string): Promise<GuestBooking | undefined> {
  const [found] = await db
    .select({
      booking: bookings,
      title: eventTypes.title,
      hostName: users.fullName,
      hostUsername: users.username,
      hostAvatarUrl: users.avatarUrl,
      // The event type's own booking window, else the host's (decisions §16).
      hostMaxAdvanceDays: sql<number>`coalesce(${eventTypes.maxAdvanceDays}, ${users.maxAdvanceDays})`,
      eventSlug: eventTypes.slug,
      eventActive: eventTypes.isActive,
      questions: eventTypes.customQuestions,
    })
    .from(bookings)
    .innerJoin(eventTypes, eq(eventTypes.id, bookings.eventTypeId))
    .innerJoin(users, eq(users.id, bookings.hostId))
    .where(eq(bookings.cancelTokenHash, hashCancelToken(token)))
    .limit(1);
  if (!found) return undefined;
  const { hostUsername, ...rest } = found;
  const { hosts, team } = await loadPeopleOf(db, found.booking.id);
  if (!team) return { ...rest, homePath: `/${hostUsername}`, homeName: found.hostName, owner: hostUsername };
  const names = andList(asLocale(found.booking.guestLanguage), hosts.map((h) => h.fullName));
  return { ...rest, hostName: names, homePath: `/team/${team.slug}`, homeName: team.name, owner: `teams/${team.slug}` };
}

/** "Monday, March 15, 2027, 9:00 AM" in the guest's own zone and language (by default the booking's). */
export function guestWhen(booking: BookingRow, locale: Locale = asLocale(booking.guestLanguage)): string {
  return sentenceMoment(booking.startTime.getTime(), booking.guestTimezone, locale);
}

/**
 * POST /public/cancel: the guest cancels with the token from their cancelUrl. Idempotent: a
 * cancelled booking answers the same body again. An unknown token is 404.
 */
export async function cancelBookingAsGuest(db: Db, token: string, now: number, reason?: string, scope: CancelScope = "this"): Promise<GuestCancellation> {
  const found = await findGuestBooking(db, token);
  if (!found) throw notFound("Booking");
  let booking = found.booking;
  if (booking.status !== "cancelled") {
    assertModifiable(booking, now);
    booking = (await cancelInScope(db, booking, scope, GUEST, reason || null, now)).row;
  }
  const locale = asLocale(booking.guestLanguage);
  const words = messagesOf(locale);
  const cancelled = fill(words.mail.cancelledMessage, { title: found.title, host: found.hostName, when: `${guestWhen(booking)} (${booking.guestTimezone})` });
  return { id: booking.id, status: "cancelled", message: [cancelled, refundWords(booking, words, locale)].filter(Boolean).join(" ") };
}

/** What a paid booking's cancel did with its money, in the guest's words (decisions §20); nothing for a free one or a hold. */
function refundWords(booking: BookingRow, words: ReturnType<typeof messagesOf>, locale: Locale): string | undefined {
  if (booking.priceAmount === null || booking.priceCurrency === null) return undefined;
  if (booking.paymentStatus === "refunded") return fill(words.pages.refundOnItsWay, { amount: formatMoney(booking.priceAmount, booking.priceCurrency, INTL_TAG[locale]) });
  if (booking.paymentStatus === "paid") return words.pages.notRefundedDone;
  return undefined;
}
