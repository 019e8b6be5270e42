import type { Metadata } from "next";
import { BookingList } from "@/components/dashboard/bookings/booking-list";
import { Prefetched } from "@/app/dashboard/prefetched";
import { bookingsPage } from "@/lib/dashboard/booking-views";

export const metadata: Metadata = { title: "Bookings" };

/** ?booking=<id>: a request's email links here; the page opens on the requests with that one marked. */
export default async function BookingsPage({ searchParams }: { searchParams: Promise<{ booking?: string | string[] }> }) {
  const focus = (await searchParams).booking;
  const focusId = typeof focus === "string" ? focus : undefined;
  const view = focusId ? "requests" : "upcoming";
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Bookings</h1>
      {/* The first view's first page, the host's zone and the questions' labels, in the first HTML. */}
      <Prefetched resources={["me", "eventTypes", { bookings: bookingsPage(view, 1) }]}>
        <BookingList focusId={focusId} initialView={view} />
      </Prefetched>
    </>
  );
}
