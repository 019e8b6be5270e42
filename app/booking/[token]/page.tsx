import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { AnswerValue } from "@/components/booking/answer-value";
import { CalendarButtons } from "@/components/booking/calendar-buttons";
import { buttonClass } from "@/components/ui/button";
import { Container } from "@/components/ui/container";
import { getDb } from "@/db";
import { getConfig } from "@/lib/config";
import { formatClockRange, formatLongDay, zoneLongName } from "@/lib/format";
import { hour12InZone } from "@/lib/notifications/clock";
import { readablePhone } from "@/lib/phone";
import { readableAnswer } from "@/lib/question-answers";
import { findGuestBooking } from "@/lib/services/cancel-booking";
import { isoUtc } from "@/lib/time";

// /booking/{token}: the guest's own page for their booking (its manageUrl; the same secret as
// cancelUrl and rescheduleUrl). It shows, and links onward; it changes nothing by being opened.

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Your booking",
  robots: { index: false, follow: false },
  // The token is in this page's URL: never send it onward as a Referer.
  referrer: "no-referrer",
};

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

/** The booking behind the token, and whether it has started (it can no longer be changed then). */
async function loadBooking(token: string) {
  const found = await findGuestBooking(await getDb(), token);
  return found && { ...found, past: found.booking.startTime.getTime() <= Date.now() };
}

export default async function ManageBookingPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const found = await loadBooking(token);
  if (!found) notFound();
  const { booking, title, hostName, hostUsername, questions, past } = found;
  const zone = booking.guestTimezone;
  const start = isoUtc(booking.startTime);
  const end = isoUtc(booking.endTime);
  const cancelled = booking.status === "cancelled";
  const answers = questions.flatMap((q) => {
    const answer = Object.hasOwn(booking.customAnswers, q.id) ? booking.customAnswers[q.id] : undefined;
    return answer ? [{ id: q.id, label: q.label, lines: readableAnswer(q, answer, readablePhone), list: q.type === "checkboxes" }] : [];
  });
  const heading = cancelled ? "This booking is cancelled" : past ? "This booking has passed" : booking.status === "pending" ? "Your booking is requested" : "Your booking";

  return (
    <Container className="sm:py-16">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">{heading}</h1>
        {booking.status === "pending" && !past && <p className="text-slate-600">{hostName} will confirm it; you will get an email then.</p>}
      </div>
      <dl
        data-testid="booking-details"
        className={`grid grid-cols-[max-content_minmax(0,1fr)] gap-x-6 gap-y-2 rounded-lg border bg-white p-5 ${cancelled ? "border-slate-200 text-slate-500" : "border-slate-200"}`}
      >
        <Row label="What">
          <span className={cancelled ? "line-through" : "font-medium"}>{title}</span>
        </Row>
        <Row label="With">{hostName}</Row>
        <Row label="When">
          {formatLongDay(start, zone, { year: true })}, <span className="whitespace-nowrap">{formatClockRange(start, end, zone, hour12InZone(zone))}</span>
          <br />
          <span className="text-sm text-slate-500">
            {zoneLongName(zone, start)} ({zone})
          </span>
        </Row>
        {booking.location && <Row label="Where">{booking.location}</Row>}
        <Row label="Booked by">
          {booking.guestName}
          {booking.guestEmail && <span className="block break-all text-sm text-slate-500">{booking.guestEmail}</span>}
        </Row>
        {answers.map((a) => (
          <Row key={a.id} label={a.label}>
            <AnswerValue lines={a.lines} list={a.list} />
          </Row>
        ))}
        {cancelled && booking.cancellationReason && <Row label="Reason">{booking.cancellationReason}</Row>}
      </dl>
      {cancelled ? (
        <div className="flex flex-col items-start gap-3">
          <p className="text-slate-600">{booking.cancelledBy === "guest" ? "You cancelled it, and the host has been told." : `${hostName} cancelled it.`}</p>
          <Link href={`/${hostUsername}`} className={buttonClass("primary")}>
            Book another time with {hostName}
          </Link>
        </div>
      ) : past ? (
        <p className="text-slate-600">It can no longer be moved or cancelled here.</p>
      ) : (
        <>
          <section aria-labelledby="change" className="flex flex-col gap-3">
            <h2 id="change" className="font-semibold">
              Need a change?
            </h2>
            <div className="flex flex-wrap gap-3">
              <Link href={`/reschedule/${encodeURIComponent(token)}`} className={buttonClass("secondary")}>
                Reschedule
              </Link>
              <Link href={`/cancel/${encodeURIComponent(token)}`} className={buttonClass("danger")}>
                Cancel booking
              </Link>
            </div>
          </section>
          <section aria-labelledby="calendar" className="flex flex-col gap-3">
            <h2 id="calendar" className="font-semibold">
              Add it to your calendar
            </h2>
            <CalendarButtons
              token={token}
              title={`${title} with ${hostName}`}
              startTime={start}
              endTime={end}
              location={booking.location}
              manageUrl={`${getConfig().appUrl}/booking/${token}`}
            />
          </section>
        </>
      )}
    </Container>
  );
}
