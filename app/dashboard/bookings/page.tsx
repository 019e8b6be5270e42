import type { Metadata } from "next";
import { BookingList } from "@/components/dashboard/bookings/booking-list";

export const metadata: Metadata = { title: "Bookings" };

export default function BookingsPage() {
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Bookings</h1>
      <BookingList />
    </>
  );
}
