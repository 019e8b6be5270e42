import type { Metadata } from "next";
import { BookingList } from "@/components/dashboard/bookings/booking-list";
import { Prefetched } from "@/app/dashboard/prefetched";
import { bookingsPage } from "@/lib/dashboard/booking-views";

export const metadata: Metadata = { title: "Bookings" };

export default function BookingsPage() {
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Bookings</h1>
      {/* The first view's first page, the host's zone and the questions' labels, in the first HTML. */}
      <Prefetched resources={["me", "eventTypes", { bookings: bookingsPage("upcoming", 1) }]}>
        <BookingList />
      </Prefetched>
    </>
  );
}
