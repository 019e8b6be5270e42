import { queryOptions } from "@tanstack/react-query";
import { bookingsQuery, type BookingFilter } from "@/lib/browser/api-client/bookings";
import { BOOKING_VIEWS } from "./booking-views";

// How many requests wait for the host's answer: one query, read by the dashboard's nav (its
// badge), the home (its card) and the Bookings page (its Requests tab), and prefetched by the
// dashboard's layout. It is the Requests view's own list with one row: its total is the count,
// and its key lies under the bookings' key, so every confirm, decline, cancel or reschedule that
// refreshes the bookings refreshes the count too.

/** The Requests view, one row: only its total is read. */
export const REQUESTS_WAITING: BookingFilter = { ...BOOKING_VIEWS.requests.filter, limit: 1 };

/** Requests arrive from guests while the dashboard is open: look again now and then. */
const REFRESH_MS = 60_000;

export const requestsWaitingQuery = () =>
  queryOptions({ ...bookingsQuery(REQUESTS_WAITING), select: (list) => list.pagination.total, refetchInterval: REFRESH_MS });

/** "1 request waiting", "2 requests waiting". */
export function requestsWaitingWords(count: number): string {
  return `${count} request${count === 1 ? "" : "s"} waiting`;
}

/** The Bookings page opened on its Requests tab. */
export const REQUESTS_HREF = "/dashboard/bookings?view=requests";
