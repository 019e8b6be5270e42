"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { usePathname, useSearchParams } from "next/navigation";
import { useCallback } from "react";
import { useEventTypeGroups } from "@/components/dashboard/event-type-groups";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { bookingsCsvHref, bookingsQuery } from "@/lib/browser/api-client/bookings";
import { meQuery } from "@/lib/browser/api-client/account";
import { eventTypesQuery } from "@/lib/browser/api-client/event-types";
import { BOOKING_VIEWS as VIEWS, BOOKINGS_PAGE_SIZE as PAGE_SIZE, bookingsPage, type BookingView as View } from "@/lib/dashboard/booking-views";
import { bookingsSearch, filtersOf, isFiltered, rangeIsReversed, readBookingsState, type BookingsState } from "@/lib/dashboard/bookings-url";
import { emptyFilteredWords } from "@/lib/dashboard/filter-words";
import { zoneWords } from "@/lib/dashboard/when";
import { bookingRows } from "@/lib/dashboard/booking-groups";
import { BookingCard } from "./booking-card";
import { BookingFilters, type UpdateBookings } from "./booking-filters";
import { RequestsCount } from "../requests-waiting";
import { SeatGroup } from "./seat-group";

const EMPTY: Record<View, string> = {
  upcoming: "No upcoming bookings. Share your booking link to get some.",
  requests: "No requests waiting for your answer.",
  past: "No past bookings yet.",
  noShows: "No guest marked as a no-show.",
  cancelled: "No cancelled bookings.",
};

/**
 * The view, page and filters, kept in the address. The browser's own history API moves it: Next.js
 * follows pushState/replaceState in useSearchParams without asking the server for the page again,
 * and the list's query fetches what the new state needs. `booking` (an email's link) is dropped at
 * the first change: from then on the address says where the host is.
 */
function useBookingsState(defaults: { view: View; page: number }): [BookingsState, UpdateBookings] {
  const params = useSearchParams();
  const pathname = usePathname();
  const state = readBookingsState(params, params.has("booking") ? defaults : { view: "upcoming", page: 1 });
  const update = useCallback<UpdateBookings>(
    (change, how) => {
      // The address as it is now (a debounced search may land after a click on a tab).
      const current = new URLSearchParams(window.location.search);
      const next = { ...readBookingsState(current, current.has("booking") ? defaults : { view: "upcoming", page: 1 }), ...change };
      const url = `${pathname}${bookingsSearch(next)}`;
      if (how === "push") window.history.pushState(null, "", url);
      else window.history.replaceState(null, "", url);
    },
    [pathname, defaults.view, defaults.page], // eslint-disable-line react-hooks/exhaustive-deps -- the defaults' values, not the object
  );
  return [state, update];
}

/**
 * The host's bookings: upcoming (requests among them), requests, past, no-shows and cancelled,
 * narrowed by a guest, an event type and a range of days, paged, times in the host's zone.
 * `focusId` (a booking an email links to) is marked on the view and page it opens on;
 * `focusMissing` says the linked booking is not among the host's.
 */
export function BookingList({
  focusId,
  focusMissing = false,
  initialView = "upcoming",
  initialPage = 1,
  hostZone,
  teams = [],
}: {
  focusId?: string;
  focusMissing?: boolean;
  initialView?: View;
  initialPage?: number;
  /** The host's profile zone, as the server rendered the page with it. */
  hostZone: string;
  teams?: { id: string; name: string }[];
}) {
  const [state, update] = useBookingsState({ view: initialView, page: initialPage });
  const { view, page } = state;
  const filtered = isFiltered(state);
  const reversed = rangeIsReversed(state);
  const me = useQuery(meQuery());
  const eventTypes = useQuery(eventTypesQuery({ kind: "me" }));
  const groups = useEventTypeGroups(teams);
  const bookings = useQuery({ ...bookingsQuery(bookingsPage(view, page, filtersOf(state))), placeholderData: keepPreviousData, enabled: !reversed });
  const clear = () => update({ eventTypeId: undefined, from: undefined, to: undefined, q: undefined, page: 1 }, "push");

  const total = bookings.data?.pagination.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const zone = me.data?.timezone ?? hostZone;
  const eventTypeTitle = groups.flatMap((g) => g.choices).find((c) => c.id === state.eventTypeId)?.title;
  const empty = bookings.data?.data.length === 0;
  // An address from before the list shrank (a shared link, Back) may name a page past its end.
  const beyondLast = empty && page > 1 && total > 0;
  const emptyWords = beyondLast
    ? `Page ${page} is past the last page of this list (${pages}).`
    : filtered
      ? emptyFilteredWords(view, filtersOf(state), eventTypeTitle)
      : EMPTY[view];

  return (
    <div className="flex flex-col gap-4">
      <div role="tablist" aria-label="Which bookings" className="flex flex-wrap gap-1">
        {(Object.keys(VIEWS) as View[]).map((v) => (
          <button
            key={v}
            type="button"
            role="tab"
            aria-selected={v === view}
            onClick={() => update({ view: v, page: 1 }, "push")}
            className={`rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-600 ${
              v === view ? "bg-blue-600 text-white" : "border border-slate-300 bg-white text-slate-700 hover:bg-slate-50"
            }`}
          >
            {VIEWS[v].label}
            {v === "requests" && <RequestsCount />}
          </button>
        ))}
      </div>
      <BookingFilters state={state} groups={groups} reversed={reversed} showClear={filtered && !empty} update={update} clear={clear} />
      {focusMissing && (
        <Alert tone="info">The booking your link points to is not among yours: another host may have taken it over, or the link is from another account.</Alert>
      )}
      <div role="tabpanel" aria-label={`${VIEWS[view].label} bookings`} className="flex flex-col gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <p className="text-sm text-slate-600">Times in your timezone, {zoneWords(zone)}.</p>
          {!reversed && total > 0 && (
            <a
              href={bookingsCsvHref({ ...bookingsPage(view, 1, filtersOf(state)) })}
              download
              className="text-sm font-medium text-blue-700 underline"
              title="Every booking of this list (all pages), for a spreadsheet"
            >
              Download CSV ({total === 1 ? "1 booking" : `${total.toLocaleString("en")} bookings`})
            </a>
          )}
        </div>
        {reversed ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">Choose a To date on or after the From date to see bookings.</p>
        ) : bookings.isPending || me.isPending ? (
          <p className="text-slate-500">Loading bookings…</p>
        ) : bookings.isError ? (
          <Alert tone="error">{bookings.error.message}</Alert>
        ) : me.isError ? (
          <Alert tone="error">{me.error.message}</Alert>
        ) : bookings.data.data.length === 0 ? (
          <div className="flex flex-col items-start gap-3 rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">
            <p>{emptyWords}</p>
            {beyondLast ? (
              <Button variant="secondary" size="sm" onClick={() => update({ page: 1 }, "push")}>
                Go to page 1
              </Button>
            ) : filtered && (
              <Button variant="secondary" size="sm" onClick={clear}>
                Clear filters
              </Button>
            )}
          </div>
        ) : (
          <ul className="flex flex-col gap-3" aria-busy={bookings.isPlaceholderData}>
            {/* A start's seats are one row, grouped over this page (the API's paging stays). */}
            {bookingRows(bookings.data.data).map((row) =>
              row.kind === "seats" ? (
                <SeatGroup key={row.key} seats={row.bookings} seat={row.seat} view={view} zone={zone} focusId={focusId} />
              ) : (
                <BookingCard
                  key={row.booking.id}
                  booking={row.booking}
                  view={view}
                  zone={zone}
                  username={me.data!.username}
                  myUserId={me.data!.id}
                  eventType={eventTypes.data?.find((e) => e.id === row.booking.eventType.id)}
                  focused={row.booking.id === focusId}
                />
              ),
            )}
          </ul>
        )}
        {!reversed && pages > 1 && (
          <nav aria-label="Pages" className="flex items-center justify-between gap-2">
            <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => update({ page: page - 1 }, "push")}>
              Previous
            </Button>
            <span className="text-sm text-slate-600">
              Page {page} of {pages}
            </span>
            <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => update({ page: page + 1 }, "push")}>
              Next
            </Button>
          </nav>
        )}
      </div>
    </div>
  );
}
