import "server-only";
import type { Db } from "@/db";
import { getConfig } from "@/lib/config";
import { composeBookingMail } from "@/lib/notifications/booking-mail";
import { sendMail } from "@/lib/notifications/mail-transport";
import { Booking } from "@/lib/schemas/booking";
import { BookingCancelledData, BookingRescheduledData } from "@/lib/schemas/webhook";
import type { BookingMailEvent, MailPayment, RequestVariant } from "@/lib/notifications/booking-mail";
import { paymentOfId } from "@/lib/services/bookings/checkout";
import type { IcsOccurrence } from "@/lib/notifications/booking-ics";
import { loadBookingFacts, loadGuestMessageFacts, type BookingFacts } from "@/lib/services/bookings/facts";
import { BookingEventPayload } from "@/lib/outbox/booking-events";
import { BOOKING_EMAIL } from "@/lib/outbox/kinds";
import type { JobHandler } from "./types";
import { dashboardBookingUrl, guestLinks as linksFor, siteDomain } from "@/lib/links";
import { BookingEmailJob } from "@/lib/outbox/payloads";

// One booking email to one reader (decisions §12), sent from the outbox, never inside the
// booking request. The message describes the booking as the event left it: its times and
// SEQUENCE come from the event, so a message that goes out late never shows a newer state.

// Made once: zod compiles a schema on its first parse, and each .pick() is a new one.
const BookingTimes = Booking.pick({ startTime: true, endTime: true });
const BookingStatus = Booking.pick({ status: true });
// Events written before series lack the field.
const BookingSeriesField = Booking.pick({ series: true }).partial();
// Events written before payments lack the field.
const BookingPaymentField = Booking.pick({ payment: true }).partial();

/**
 * The occurrences this message tells of together (decisions §19): a new series' every occurrence
 * (its first occurrence's booking.created; effects.ts sends the others none), or the occurrences
 * a `following` cancel took (the first one's event lists them). Undefined: the booking alone.
 */
function occurrencesOf(event: BookingEventPayload): IcsOccurrence[] | undefined {
  if (event.tellsOf && event.tellsOf.length > 1) {
    return event.tellsOf.map((o) => ({ bookingId: o.bookingId, sequence: o.sequence, start: new Date(o.startTime), end: new Date(o.endTime), cancelled: true }));
  }
  if (event.event !== "booking.created") return undefined;
  const series = BookingSeriesField.parse(event.data).series;
  if (!series || series.occurrences.length < 2 || series.occurrences[0]!.id !== event.bookingId) return undefined;
  return series.occurrences.map((o) => ({ bookingId: o.id, sequence: event.sequence, start: new Date(o.startTime), end: new Date(o.endTime), cancelled: o.status === "cancelled" }));
}

function timesOf(event: BookingEventPayload, facts: BookingFacts) {
  if (event.event === "booking.created" || event.event === "booking.confirmed") {
    const data = BookingTimes.parse(event.data);
    return { start: new Date(data.startTime), end: new Date(data.endTime) };
  }
  if (event.event === "booking.rescheduled") {
    const data = BookingRescheduledData.parse(event.data);
    return {
      start: new Date(data.startTime),
      end: new Date(data.endTime),
      previous: { start: new Date(data.previousStartTime), end: new Date(data.previousEndTime) },
    };
  }
  // Cancelling keeps the times.
  return { start: facts.booking.startTime, end: facts.booking.endTime };
}

/** A request's messages: the new booking waiting for approval, and its decline or expiry. */
function variantOf(event: BookingEventPayload): RequestVariant | undefined {
  if (event.event === "booking.created") return BookingStatus.parse(event.data).status === "pending" ? "requested" : undefined;
  if (event.event === "booking.cancelled") {
    const data = BookingCancelledData.parse(event.data);
    if (data.declined) return "declined";
    if (data.cancelledBy === "system") return "expired";
  }
  return undefined;
}

/**
 * A paid booking's money as this event left it (decisions §20): a confirmation says what the
 * guest paid (the whole Checkout: a series' every session); a cancel whether its amount goes back
 * (each occurrence it tells of is refunded its own share), or is kept past the refund window.
 */
async function paymentOf(db: Db, event: BookingEventPayload, paymentId: string | null): Promise<MailPayment | undefined> {
  if (!paymentId) return undefined;
  const data = event.event === "booking.cancelled" ? BookingCancelledData.parse(event.data).payment : BookingPaymentField.parse(event.data).payment;
  if (!data) return undefined;
  const payment = await paymentOfId(db, paymentId);
  if (!payment) return undefined;
  if (event.event !== "booking.cancelled") return data.status === "paid" ? { status: "paid", amount: payment.amount, currency: payment.currency } : undefined;
  const told = event.tellsOf && event.tellsOf.length > 1 ? event.tellsOf.length : 1;
  if (data.status === "refunded") return { status: "refunded", amount: data.amount * told, currency: data.currency };
  if (data.status === "paid") return { status: "kept", amount: data.amount * told, currency: data.currency, hours: payment.refundableUntilHours };
  return undefined;
}

const MAILED: readonly string[] = ["booking.created", "booking.cancelled", "booking.rescheduled", "booking.confirmed"] satisfies BookingMailEvent[];
const isMailed = (event: string): event is BookingMailEvent => MAILED.includes(event);

/** The booking's facts for `reader` and, for the guest, their token: one statement. */
async function factsFor(db: Db, bookingId: string, reader: "guest" | "host", hostId: string | undefined) {
  if (reader === "guest") return loadGuestMessageFacts(db, bookingId);
  const facts = await loadBookingFacts(db, bookingId, hostId);
  return facts && { facts, guestToken: undefined };
}

/** Permanent refusals (the recipient does not exist): retrying them for a day changes nothing. */
function isPermanent(error: unknown): boolean {
  return (error as { code?: unknown }).code === "EENVELOPE";
}

export function bookingEmail(): JobHandler {
  return {
    kind: BOOKING_EMAIL,
    async run({ db, job }) {
      const { reader, hostId, eventJobId, event } = BookingEmailJob.parse(job.payload);
      // Events that send no email (a no-show mark) never get a job; one written by a newer version is left alone.
      if (!isMailed(event.event)) return { status: "done" };
      const mailEvent = event.event;
      const found = await factsFor(db, event.bookingId, reader, hostId);
      // The booking is gone (its host deleted the account): there is no one to write to about it.
      if (!found) return { status: "done" };
      const { facts, guestToken } = found;
      // The guest's data was erased (decisions §16): there is no address to write to.
      if (reader === "guest" && facts.booking.guestEmail === "") return { status: "done" };
      // A round-robin move that changed hosts: the host it left and the host it went to are told so.
      const former = event.formerHostIds ?? [];
      const reassigned = reader === "host" && former.length > 0 ? (former.includes(facts.host.userId) ? "from" : "to") : undefined;
      const { mailFrom } = getConfig();
      const host = siteDomain();
      const message = await composeBookingMail({
        event: mailEvent,
        reader,
        variant: variantOf(event),
        unconfirmed: event.event === "booking.rescheduled" && facts.booking.status === "pending",
        dashboardUrl: reader === "host" ? dashboardBookingUrl(event.bookingId) : undefined,
        facts,
        reassigned,
        ...timesOf(event, facts),
        sequence: event.sequence,
        occurrences: occurrencesOf(event),
        guestLinks: guestToken === undefined ? undefined : linksFor(guestToken),
        from: mailFrom,
        messageId: `<${event.bookingId}.${eventJobId}.${reader === "host" && hostId && hostId !== event.hostId ? `host-${hostId}` : reader}@${host}>`,
        stamp: new Date(event.occurredAt),
        payment: await paymentOf(db, event, facts.booking.paymentId),
      });
      try {
        await sendMail(message);
      } catch (error) {
        if (isPermanent(error)) return { status: "failed", error: error instanceof Error ? error.message : String(error) };
        throw error;
      }
      return { status: "done" };
    },
  };
}
