import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { eventTypes, teams, users, type PaymentRow } from "@/db/schema";
import { bookingIdsOfPayment, paymentOfId } from "./checkout";
import { loadBookingFacts, type BookingFacts } from "./facts";

// What the late payment's email (lib/jobs/payment-late-email.ts) tells of (decisions §20): the
// payment refunded whole, its first booking (the one the guest booked: a series' first session)
// and where its event type is booked again (the host's page, or its team's).

export type LatePaymentFacts = { payment: PaymentRow; facts: BookingFacts; page: { slug: string; username: string | null; teamSlug: string | null } };

/** The late payment's facts, or undefined when its payment, booking or event type is gone (an account deleted). */
export async function latePaymentFacts(db: Db, paymentId: string): Promise<LatePaymentFacts | undefined> {
  const payment = await paymentOfId(db, paymentId);
  if (!payment) return undefined;
  const [first] = await bookingIdsOfPayment(db, paymentId);
  const facts = first ? await loadBookingFacts(db, first) : undefined;
  if (!facts) return undefined;
  const [page] = await db
    .select({ slug: eventTypes.slug, username: users.username, teamSlug: teams.slug })
    .from(eventTypes)
    .leftJoin(users, eq(users.id, eventTypes.userId))
    .leftJoin(teams, eq(teams.id, eventTypes.teamId))
    .where(eq(eventTypes.id, payment.eventTypeId));
  return page && { payment, facts, page };
}
