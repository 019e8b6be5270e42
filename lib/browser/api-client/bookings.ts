import { queryOptions } from "@tanstack/react-query";
import { api, dataOf, type AnswerOf, type Schemas } from "./client";

// The host's bookings, personal and team ones alike (decisions §15): the list and its filters,
// each booking's history, and what a host does to one (cancel, move, confirm, decline, no-show).

export type BookingHostDto = NonNullable<Schemas["Booking"]["hosts"]>[number];
export type BookingTeamDto = NonNullable<Schemas["Booking"]["team"]>;
/**
 * A booking; its hosts and team (decisions §15) are optional here, so that an answer from before
 * teams (a tab open across a release) still renders: no hosts is the host alone, no team personal.
 */
export type BookingDto = Omit<Schemas["Booking"], "hosts" | "team"> & { hosts?: BookingHostDto[]; team?: BookingTeamDto | null };
/** A page of the list as the dashboard asks for it: by number (it never walks changes, which answer a cursor instead). */
export type BookingListDto = { data: BookingDto[]; pagination: Extract<AnswerOf<"/me/bookings", "get">["pagination"], { total: number }> };
export type BookingHistoryEntryDto = Schemas["BookingHistoryEntry"];
/** status: one status, or several joined by commas ("pending,confirmed"). */
export type BookingFilter = {
  status?: string;
  noShow?: boolean;
  eventTypeId?: string;
  when?: "upcoming" | "past";
  from?: string;
  to?: string;
  /** A part of the guest's name or email. */
  q?: string;
  page?: number;
  limit?: number;
};

/** Every list, and every booking's history, sits under `all`: a change to a booking invalidates it. */
export const bookingKeys = { all: ["me", "bookings"] as const };

/** A filter as the query string the API reads: text throughout, an empty field left out. */
const listQuery = ({ noShow, page, limit, ...text }: BookingFilter) => ({
  status: text.status || undefined,
  noShow: noShow === undefined ? undefined : noShow ? ("true" as const) : ("false" as const),
  eventTypeId: text.eventTypeId || undefined,
  when: text.when,
  from: text.from || undefined,
  to: text.to || undefined,
  q: text.q || undefined,
  page: page === undefined ? undefined : String(page),
  limit: limit === undefined ? undefined : String(limit),
});

/**
 * The list as a CSV file with the same filters, every page of it (decisions §22): a same-origin
 * GET, so the dashboard's session cookie authenticates the download.
 */
export function bookingsCsvHref(filter: BookingFilter): string {
  const query = new URLSearchParams({ format: "csv" });
  for (const [name, value] of Object.entries(listQuery({ ...filter, page: undefined, limit: undefined }))) if (value !== undefined) query.set(name, value);
  return `/api/v1/me/bookings?${query.toString()}`;
}

export function bookingsQuery(filter: BookingFilter) {
  return queryOptions({
    queryKey: [...bookingKeys.all, filter] as const,
    queryFn: async (): Promise<BookingListDto> => (await dataOf(api.GET("/me/bookings", { params: { query: listQuery(filter) } }))) as BookingListDto,
  });
}

const booking = (bookingId: string) => ({ params: { path: { bookingId } } });

/** A booking's history, under the bookings' key: every change to a booking refreshes it too. */
export const bookingHistoryQuery = (id: string) =>
  queryOptions({
    queryKey: [...bookingKeys.all, "history", id] as const,
    queryFn: async () => (await dataOf(api.GET("/me/bookings/{bookingId}/history", booking(id)))).data,
  });

/** A series' occurrence: `this` one only, or it and every later one not started (decisions §19). */
export type CancelScope = "this" | "following";

export const cancelBooking = (id: string, reason: string, scope: CancelScope = "this"): Promise<BookingDto> =>
  dataOf(api.POST("/me/bookings/{bookingId}/cancel", { ...booking(id), body: { ...(reason ? { reason } : {}), ...(scope === "following" ? { scope } : {}) } }));

export const rescheduleBooking = (id: string, startTime: string): Promise<BookingDto> =>
  dataOf(api.POST("/me/bookings/{bookingId}/reschedule", { ...booking(id), body: { startTime } }));

export const confirmBooking = (id: string): Promise<BookingDto> => dataOf(api.POST("/me/bookings/{bookingId}/confirm", booking(id)));

export const declineBooking = (id: string, reason: string): Promise<BookingDto> =>
  dataOf(api.POST("/me/bookings/{bookingId}/decline", { ...booking(id), body: reason ? { reason } : {} }));

export const markNoShow = (id: string, noShow: boolean): Promise<BookingDto> =>
  dataOf(api.POST("/me/bookings/{bookingId}/no-show", { ...booking(id), body: { noShow } }));
