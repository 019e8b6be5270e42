import { formatShortDate } from "@/lib/time/format";
import type { BookingFilters, BookingView } from "./booking-views";

const NOUNS: Record<BookingView, string> = {
  upcoming: "upcoming bookings",
  requests: "requests",
  past: "past bookings",
  noShows: "no-shows",
  cancelled: "cancelled bookings",
};

const day = (date: string) => formatShortDate(date, { year: true });

/** "from Mar 3, 2027 to Mar 10, 2027", "from Mar 3, 2027 on", "up to Mar 10, 2027", or "". */
function rangeWords({ from, to }: BookingFilters): string {
  if (from && to) return from === to ? `on ${day(from)}` : `from ${day(from)} to ${day(to)}`;
  if (from) return `from ${day(from)} on`;
  if (to) return `up to ${day(to)}`;
  return "";
}

/**
 * What an empty, filtered list says it looked for: "No past bookings of “Strategy session” from
 * Mar 3, 2027 to Mar 10, 2027 with a guest whose name or email contains “grace”." An event type
 * the host no longer has is named as such rather than by its id.
 */
export function emptyFilteredWords(view: BookingView, filters: BookingFilters, eventTypeTitle: string | undefined): string {
  const parts = [`No ${NOUNS[view]}`];
  if (filters.eventTypeId) parts.push(eventTypeTitle ? `of “${eventTypeTitle}”` : "of the chosen event type");
  const range = rangeWords(filters);
  if (range) parts.push(range);
  if (filters.q) parts.push(`with a guest whose name or email contains “${filters.q}”`);
  return `${parts.join(" ")}.`;
}
