import type { BookingFilter } from "@/lib/browser/api-client/host";

// The bookings page's views: shared by its client component and the page that prefetches the
// first of them, so both ask under the same query key.

export const BOOKING_VIEWS = {
  upcoming: { label: "Upcoming", filter: { when: "upcoming", status: "confirmed" } },
  past: { label: "Past", filter: { when: "past", status: "confirmed" } },
  cancelled: { label: "Cancelled", filter: { status: "cancelled" } },
} satisfies Record<string, { label: string; filter: BookingFilter }>;
export type BookingView = keyof typeof BOOKING_VIEWS;

export const BOOKINGS_PAGE_SIZE = 10;

/** The filter of one page of a view. */
export const bookingsPage = (view: BookingView, page: number): BookingFilter => ({ ...BOOKING_VIEWS[view].filter, page, limit: BOOKINGS_PAGE_SIZE });
