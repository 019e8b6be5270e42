import "server-only";
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { bookings, eventTypes, type UserRow } from "@/db/schema";
import { toBooking, type BookingDto } from "@/lib/dto";
import { readableAnswer } from "@/lib/question-answers";
import { readablePhone } from "@/lib/phone";
import { loadBookingPeople } from "@/lib/services/bookings/people";
import { hostedBy } from "@/lib/services/bookings/store";

// A guest's data as one host holds it (decisions §16): every booking of that address the host
// hosts (personal and team bookings), with the answers the guest gave.

/** The guest's bookings with this host: the address in any case. */
export function guestBookingsOf(host: UserRow, email: string): SQL {
  return and(hostedBy(host.id), sql`lower(${bookings.guestEmail}) = ${email.trim().toLowerCase()}`)!;
}

export type GuestAnswer = { questionId: string; label: string; answer: string };
export type GuestBooking = BookingDto & { answers: GuestAnswer[] };
export type GuestData = { email: string; bookings: GuestBooking[] };

/** The ids of the guest's bookings with this host, locked for an erasure when `forUpdate`. */
export async function guestBookingIds(db: Db | Tx, host: UserRow, email: string, forUpdate = false): Promise<string[]> {
  const query = db.select({ id: bookings.id }).from(bookings).where(guestBookingsOf(host, email));
  return (forUpdate ? await query.for("update") : await query).map((r) => r.id);
}

/** GET /me/guests/{email}: the guest's bookings with the host, oldest first, each with its answers read out. */
export async function guestData(db: Db, host: UserRow, email: string): Promise<GuestData> {
  const rows = await db
    .select({ booking: bookings, eventType: { id: eventTypes.id, title: eventTypes.title, questions: eventTypes.customQuestions } })
    .from(bookings)
    .innerJoin(eventTypes, eq(eventTypes.id, bookings.eventTypeId))
    .where(guestBookingsOf(host, email))
    .orderBy(asc(bookings.startTime), asc(bookings.id));
  const people = await loadBookingPeople(db, rows.map((r) => r.booking.id));
  return {
    email: email.trim().toLowerCase(),
    bookings: rows.map(({ booking, eventType }) => {
      // In the event type's order of questions; an answer to a question removed since comes last, under its id.
      const order = new Map(eventType.questions.map((q, i) => [q.id, i]));
      const answers = Object.entries(booking.customAnswers)
        .sort(([a], [b]) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity) || a.localeCompare(b))
        .map(([questionId, answer]) => {
          const question = eventType.questions[order.get(questionId) ?? -1];
          return { questionId, label: question?.label ?? questionId, answer: question ? readableAnswer(question, answer, readablePhone).join(", ") : answer };
        });
      return { ...toBooking(booking, eventType, people.get(booking.id)!), answers };
    }),
  };
}
