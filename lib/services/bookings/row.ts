import "server-only";
import type { BookingRow, EventTypeRow } from "@/db/schema";
import { seatKeyOf } from "@/lib/services/host-time/load";

const MINUTE = 60_000;

type Timing = Pick<EventTypeRow, "durationMinutes" | "bufferBeforeMinutes" | "bufferAfterMinutes">;

/**
 * A booking's times when it starts at `start` (epoch ms): its span by the event type's duration,
 * and the time it blocks with the type's buffers (what the exclusion constraint compares). What a
 * new booking is written with and what a move writes again.
 */
export function bookingTimes(eventType: Timing, start: number): Pick<BookingRow, "startTime" | "endTime" | "bufferBeforeMinutes" | "bufferAfterMinutes" | "blockedStart" | "blockedEnd"> {
  const end = start + eventType.durationMinutes * MINUTE;
  return {
    startTime: new Date(start),
    endTime: new Date(end),
    bufferBeforeMinutes: eventType.bufferBeforeMinutes,
    bufferAfterMinutes: eventType.bufferAfterMinutes,
    blockedStart: new Date(start - eventType.bufferBeforeMinutes * MINUTE),
    blockedEnd: new Date(end + eventType.bufferAfterMinutes * MINUTE),
  };
}

/** What a guest's booking is made of besides its event type and host. */
export type NewBookingFacts = {
  id: string;
  hostId: string;
  start: number;
  guest: Pick<BookingRow, "guestName" | "guestEmail" | "guestTimezone" | "guestLanguage">;
  location: string;
  customAnswers: BookingRow["customAnswers"];
  cancelTokenHash: string;
  /** The series it is an occurrence of (decisions §19); absent: a single booking. */
  seriesId?: string;
  /** The payment a paid event type's booking waits for (decisions §20); absent: a free booking. */
  paymentId?: string;
  now: number;
};

/** A new booking's row, as it will be inserted (commit.ts). */
export function newBookingRow(eventType: Timing & Pick<EventTypeRow, "id" | "requiresConfirmation" | "seats" | "price">, facts: NewBookingFacts): BookingRow {
  const price = facts.paymentId ? eventType.price : null;
  return {
    id: facts.id,
    hostId: facts.hostId,
    eventTypeId: eventType.id,
    // An event type that needs the host's approval makes a request: it holds the time like a
    // confirmed booking until the host confirms or declines it (decisions §16).
    // A paid one holds its time unconfirmed while the guest pays (decisions §20).
    status: price ? "awaiting_payment" : eventType.requiresConfirmation ? "pending" : "confirmed",
    ...bookingTimes(eventType, facts.start),
    ...facts.guest,
    location: facts.location,
    customAnswers: facts.customAnswers,
    cancelTokenHash: facts.cancelTokenHash,
    cancellationReason: null,
    cancelledBy: null,
    cancelledAt: null,
    previousStartTime: null,
    noShow: false,
    sequence: 0,
    // A seated event type's booking is a seat of its start (decisions §19).
    seatKey: eventType.seats ? seatKeyOf(eventType.id, facts.start) : null,
    seriesId: facts.seriesId ?? null,
    paymentId: price ? facts.paymentId! : null,
    paymentStatus: price ? "unpaid" : null,
    priceAmount: price ? price.amount : null,
    priceCurrency: price ? price.currency : null,
    createdAt: new Date(facts.now),
    updatedAt: new Date(facts.now),
  };
}
