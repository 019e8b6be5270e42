import type { BookingFilter } from "@/lib/browser/api-client/bookings";

// The bookings the dashboard home reads: shared by its client components and the page that
// prefetches them, so both use the same query keys.

/** The next five confirmed bookings. */
export const UPCOMING: BookingFilter = { when: "upcoming", status: "confirmed", limit: 5 };
/** Whether there is any booking at all (the getting-started list). */
export const ANY: BookingFilter = { limit: 1 };
