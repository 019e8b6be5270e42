import { isValidDate } from "@/lib/time/instants";
import { BOOKING_VIEWS, type BookingFilters, type BookingView } from "./booking-views";

// The bookings page keeps what the host is looking at in its address (?view=past&q=grace…), so a
// reload, Back and a shared link show the same list. Read by the server (the first HTML) and the
// browser alike; what a hand-edited address gets wrong is left out, never an error page.

export type BookingsState = { view: BookingView; page: number } & BookingFilters;

/** The API's limit on a search; longer text in an address is cut rather than refused. */
const MAX_SEARCH = 200;
const MAX_PAGE = 100_000;

type Params = { get(name: string): string | null };

/** `?view=&page=&eventType=&from=&to=&q=` as the page's state; unknown or malformed values are the defaults. */
export function readBookingsState(params: Params, defaults: { view: BookingView; page: number } = { view: "upcoming", page: 1 }): BookingsState {
  const view = params.get("view");
  const page = Number(params.get("page"));
  const date = (name: string) => {
    const value = params.get(name);
    return value && isValidDate(value) ? value : undefined;
  };
  const eventTypeId = params.get("eventType");
  // Control characters and lone surrogates are no part of a name or an address (the API refuses
  // NUL and lone surrogates); cut to the API's length, never inside a pair.
  const q = params
    .get("q")
    ?.replace(/\p{Cc}|\p{Cs}/gu, "")
    .trim()
    .slice(0, MAX_SEARCH)
    .replace(/\p{Cs}$/u, "");
  return {
    view: view && Object.hasOwn(BOOKING_VIEWS, view) ? (view as BookingView) : defaults.view,
    page: params.get("page") !== null && Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : defaults.page,
    eventTypeId: eventTypeId && /^[\w-]{1,200}$/.test(eventTypeId) ? eventTypeId : undefined,
    from: date("from"),
    to: date("to"),
    q: q || undefined,
  };
}

/** The address's query for `state` ("" for the first page of upcoming, unfiltered). */
export function bookingsSearch(state: BookingsState): string {
  const params = new URLSearchParams();
  if (state.view !== "upcoming") params.set("view", state.view);
  if (state.page !== 1) params.set("page", String(state.page));
  if (state.eventTypeId) params.set("eventType", state.eventTypeId);
  if (state.from) params.set("from", state.from);
  if (state.to) params.set("to", state.to);
  if (state.q) params.set("q", state.q);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** The filters of a state, without the view and page. */
export const filtersOf = ({ eventTypeId, from, to, q }: BookingsState): BookingFilters => ({ eventTypeId, from, to, q });

export const isFiltered = (state: BookingsState): boolean => Boolean(state.eventTypeId || state.from || state.to || state.q);

/** A range whose end is before its start: the API refuses it, the page says so at the field. */
export const rangeIsReversed = (state: BookingFilters): boolean => Boolean(state.from && state.to && state.from > state.to);
