import type { BookingRow, CustomQuestion } from "@/db/schema";

/**
 * What a message about a booking needs besides the booking itself: the event type's title and
 * questions, and who the host is. Defined here, where the messages are written; the bookings
 * service loads it (lib/services/bookings/facts.ts).
 */
export type BookingFacts = {
  booking: BookingRow;
  title: string;
  questions: CustomQuestion[];
  host: { fullName: string; email: string; timezone: string };
};
