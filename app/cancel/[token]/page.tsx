import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CancelBookingForm } from "@/components/booking/cancel-booking-form";
import { QueryProvider } from "@/components/providers/query-provider";
import { buttonClass } from "@/components/ui/button";
import { Container } from "@/components/ui/container";
import { getDb } from "@/db";
import { findGuestBooking, guestWhen } from "@/lib/services/cancel-booking";

// /cancel/{token}: where a guest's cancelUrl leads. Opening it only shows the booking; cancelling
// takes a click, so mail scanners and link previews that fetch the URL cancel nothing.

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Cancel your booking",
  robots: { index: false, follow: false },
  // The token is in this page's URL: never send it onward as a Referer.
  referrer: "no-referrer",
};

/** The booking behind the token, and whether it has started (it can no longer be cancelled then). */
async function loadBooking(token: string) {
  const found = await findGuestBooking(await getDb(), token);
  return found && { ...found, past: found.booking.startTime.getTime() <= Date.now() };
}

export default async function CancelPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const found = await loadBooking(token);
  if (!found) notFound();
  const { booking, title, hostName, hostUsername, past } = found;

  return (
    <Container>
      <h1 className="text-3xl font-semibold tracking-tight">
        {booking.status === "cancelled" ? "This booking is cancelled" : "Cancel your booking"}
      </h1>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 rounded-lg border border-slate-200 bg-white p-5">
        <dt className="text-slate-500">What</dt>
        <dd>
          {title} with {hostName}
        </dd>
        <dt className="text-slate-500">When</dt>
        <dd>
          {guestWhen(booking)} ({booking.guestTimezone})
          <br />
          <Link href={`/booking/${encodeURIComponent(token)}`} className="text-sm text-blue-700 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-blue-600">
            See the whole booking
          </Link>
        </dd>
        {booking.location && (
          <>
            <dt className="text-slate-500">Where</dt>
            <dd>{booking.location}</dd>
          </>
        )}
        <dt className="text-slate-500">Booked by</dt>
        <dd>{booking.guestName}</dd>
      </dl>
      {booking.status === "cancelled" ? (
        <div className="flex flex-col items-start gap-3">
          <p className="text-slate-600">Nothing more to do: the host has been told.</p>
          <Link href={`/${hostUsername}`} className={buttonClass("primary")}>
            Book another time with {hostName}
          </Link>
        </div>
      ) : past ? (
        <p className="text-slate-600">This booking has already started, so it can no longer be cancelled here.</p>
      ) : (
        <QueryProvider>
          <CancelBookingForm token={token} hostUsername={hostUsername} hostName={hostName} />
        </QueryProvider>
      )}
    </Container>
  );
}
