import type { BookingRow, CustomQuestion } from "@/db/schema";
import { andList } from "@/lib/i18n/fill";

/** A host as the messages name and address them. */
/** `language`: the language of the host's own messages (their profile's). */
export type FactsHost = { userId: string; fullName: string; email: string; timezone: string; language: string };

/**
 * What a message about a booking needs besides the booking itself: the event type's title and
 * questions, who the host is (the reader of a host's message: each host of a team booking gets
 * their own), every host of the booking (the booking's own host first) and its team, if any.
 * Defined here, where the messages are written; the bookings service loads it
 * (lib/services/bookings/facts.ts).
 */
export type BookingFacts = {
  booking: BookingRow;
  title: string;
  questions: CustomQuestion[];
  host: FactsHost;
  hosts: FactsHost[];
  team: { name: string } | null;
};

/** Whether `host` hosts the booking now (a round-robin reassignment takes it from one host). */
export function hostsBooking(facts: BookingFacts, hostId: string): boolean {
  return facts.hosts.some((h) => h.userId === hostId);
}

/**
 * "Ada Lovelace and Grace Hopper": every host of the booking, in the reader's language. Here, not
 * beside the mails: a route handler (the guest's .ics) names the hosts too, and must not reach the
 * email layout (react-dom/server is refused in a route's bundle).
 */
export function hostNames(facts: BookingFacts, locale: string = "en"): string {
  const names = facts.hosts.length > 0 ? facts.hosts.map((h) => h.fullName) : [facts.host.fullName];
  return andList(locale, names);
}
