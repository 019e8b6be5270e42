import type { BookingFilter } from "@/lib/browser/api-client/bookings";

// The bookings page's views: shared by its client component and the page that prefetches the
// first of them, so both ask under the same query key.

export const BOOKING_VIEWS = {
  // Requests hold their time: they are among the upcoming bookings, and have a view of their own.
  upcoming: { label: "Upcoming", filter: { when: "upcoming", status: "pending,confirmed" } },
  requests: { label: "Requests", filter: { when: "upcoming", status: "pending" } },
  past: { label: "Past", filter: { when: "past", status: "confirmed" } },
  noShows: { label: "No-shows", filter: { when: "past", status: "confirmed", noShow: true } },
  cancelled: { label: "Cancelled", filter: { status: "cancelled" } },
} satisfies Record<string, { label: string; filter: BookingFilter }>;
export type BookingView = keyof typeof BOOKING_VIEWS;

export const BOOKINGS_PAGE_SIZE = 10;

/** What the host narrowed the list to, on top of the view: one event type, a range of days, a guest. */
export type BookingFilters = { eventTypeId?: string; from?: string; to?: string; q?: string };

/** The filter of one page of a view, narrowed by `filters`. */
export const bookingsPage = (view: BookingView, page: number, filters: BookingFilters = {}): BookingFilter => ({
  ...BOOKING_VIEWS[view].filter,
  ...filters,
  page,
  limit: BOOKINGS_PAGE_SIZE,
});

/**
 * The view a booking is listed in: a request still to come among the requests, a cancelled one
 * among the cancelled, a confirmed one among the upcoming until it has ended, then among the past.
 * A request past its end (its expiry not yet run) is in none of them: undefined.
 */
export function viewOfBooking(booking: { status: string; endTime: string }, now: number): BookingView | undefined {
  if (booking.status === "cancelled") return "cancelled";
  const ended = Date.parse(booking.endTime) <= now;
  if (booking.status === "pending") return ended ? undefined : "requests";
  return ended ? "past" : "upcoming";
}
