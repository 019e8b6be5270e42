import type { Metadata } from "next";
import { BookingList } from "@/components/dashboard/bookings/booking-list";
import { Prefetched } from "@/app/dashboard/prefetched";
import { requireHost } from "@/lib/dashboard/current-host";
import { bookingsPage } from "@/lib/dashboard/booking-views";
import { filtersOf, rangeIsReversed, readBookingsState } from "@/lib/dashboard/bookings-url";
import { activeTeamsOf } from "@/lib/dashboard/host-teams";
import { locateBooking } from "@/lib/dashboard/locate-booking";
import type { Resource } from "@/lib/dashboard/prefetch";

export const metadata: Metadata = { title: "Bookings" };

type SearchParams = Record<string, string | string[] | undefined>;

/** The address's parameters as URLSearchParams would read them (the first of a repeated one). */
const paramsOf = (search: SearchParams) => ({ get: (name: string) => [search[name]].flat()[0] ?? null });

/**
 * The view, page and filters are the address's (?view=past&eventType=…&from=…&to=…&q=…), so a
 * reload, Back and a shared link show the same list.
 *
 * ?booking=<id>: every email a host gets about a booking links here; the page opens on the view
 * and the page where that booking is listed (a request among the requests, a cancelled one among
 * the cancelled…), with the booking marked. One that is no longer theirs is said so in words.
 */
export default async function BookingsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const host = await requireHost();
  const search = paramsOf(await searchParams);
  const focus = search.get("booking");
  const focusId = focus !== null && focus !== "" ? focus : undefined;
  const found = focusId ? await locateBooking(host, focusId) : undefined;
  const state = readBookingsState(search, { view: found?.view ?? "upcoming", page: found?.page ?? 1 });
  const teams = await activeTeamsOf(host);
  // The list as the address asks for it, the host's zone, the event types (theirs and their
  // teams': the filter's choices, the questions' labels), all in the first HTML. A reversed
  // range has no list: the page says so at the dates.
  const resources: Resource[] = ["me", "eventTypes", ...teams.map((t) => ({ teamEventTypes: t.id }))];
  if (!rangeIsReversed(state)) resources.push({ bookings: bookingsPage(state.view, state.page, filtersOf(state)) });
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Bookings</h1>
      <Prefetched resources={resources}>
        <BookingList
          focusId={found ? focusId : undefined}
          focusMissing={focusId !== undefined && !found}
          initialView={state.view}
          initialPage={state.page}
          hostZone={host.timezone}
          teams={teams}
        />
      </Prefetched>
    </>
  );
}
