import type { Metadata } from "next";
import { BookingList } from "@/components/dashboard/bookings/booking-list";
import { Prefetched } from "@/app/dashboard/prefetched";
import { requireHost } from "@/lib/auth/current-host";
import { BOOKING_VIEWS, bookingsPage, type BookingView } from "@/lib/dashboard/booking-views";
import { locateBooking } from "@/lib/dashboard/locate-booking";

export const metadata: Metadata = { title: "Bookings" };

/**
 * ?booking=<id>: every email a host gets about a booking links here; the page opens on the view
 * and the page where that booking is listed (a request among the requests, a cancelled one among
 * the cancelled…), with the booking marked. One that is no longer theirs is said so in words.
 */
export default async function BookingsPage({ searchParams }: { searchParams: Promise<{ booking?: string | string[]; view?: string | string[] }> }) {
  const { booking: focus, view: asked } = await searchParams;
  const focusId = typeof focus === "string" && focus !== "" ? focus : undefined;
  const found = focusId ? await locateBooking(await requireHost(), focusId) : undefined;
  // ?view=requests: where the dashboard's "requests waiting" lead. An unknown view is the default.
  const view = found?.view ?? (typeof asked === "string" && Object.hasOwn(BOOKING_VIEWS, asked) ? (asked as BookingView) : "upcoming");
  const page = found?.page ?? 1;
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Bookings</h1>
      {/* The first view's first page, the host's zone and the questions' labels, in the first HTML. */}
      <Prefetched resources={["me", "eventTypes", { bookings: bookingsPage(view, page) }]}>
        <BookingList focusId={found ? focusId : undefined} focusMissing={focusId !== undefined && !found} initialView={view} initialPage={page} />
      </Prefetched>
    </>
  );
}
