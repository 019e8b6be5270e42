import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { calendarLabels, CalendarButtons } from "@/components/booking/calendar-buttons";
import { AnswerValue } from "@/components/booking/answer-value";
import { GuestI18n, LanguageFooter } from "@/components/booking/guest-i18n";
import { buttonClass } from "@/components/ui/button";
import { Container } from "@/components/ui/container";
import { formatClockRange, formatLongDay } from "@/lib/time/format";
import { zoneName } from "@/lib/time/zones";
import { fill } from "@/lib/i18n/fill";
import { INTL_TAG } from "@/lib/i18n/locales";
import { guestLanguage } from "@/lib/i18n/server";
import { readableAnswer } from "@/lib/question-answers";
import { readablePhone } from "@/lib/phone";
import { isoUtc } from "@/lib/time/instants";
import { guestLinks } from "@/lib/links";
import { guestBookingOf, guestClock, guestPlace, guestSharedOf, tokenPageMetadata, type TokenPageProps } from "@/lib/guest/token-pages";
import { MeetingPlace } from "@/components/booking/meeting-place";
import { managePayment } from "@/lib/guest/payment-words";

// /booking/{token}: the guest's own page for their booking (its manageUrl; the same secret as
// cancelUrl and rescheduleUrl). It shows, and links onward; it changes nothing by being opened.

export const dynamic = "force-dynamic";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="break-words text-slate-500 not-first:mt-3 sm:not-first:mt-0">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

/** The booking behind the token, and whether it has started (it can no longer be changed then). */
async function loadBooking(token: string) {
  const found = await guestBookingOf(token);
  return found && { ...found, past: found.booking.startTime.getTime() <= Date.now() };
}

type Props = Omit<TokenPageProps, "searchParams"> & { searchParams: Promise<{ lang?: string | string[]; payment?: string | string[] }> };

/** Back from Stripe's Checkout before its event confirmed the payment: the page looks again this often. */
const CONFIRMING_REFRESH_SECONDS = 3;

export function generateMetadata(props: Props): Promise<Metadata> {
  return tokenPageMetadata(props, (messages) => messages.pages.yourBooking);
}

export default async function ManageBookingPage({ params, searchParams }: Props) {
  const { token } = await params;
  const found = await loadBooking(token);
  if (!found) notFound();
  const { booking, title, hostName, homePath, homeName, questions, past } = found;
  // The guest's chosen language, else the one they booked in.
  const query = await searchParams;
  const { locale, source, messages } = await guestLanguage({ param: query.lang, stored: booking.guestLanguage });
  const { page: m, pages: p } = messages;
  const intl = INTL_TAG[locale];
  const host = { host: hostName };
  const zone = booking.guestTimezone;
  const start = isoUtc(booking.startTime);
  const end = isoUtc(booking.endTime);
  const cancelled = booking.status === "cancelled";
  const [place, shared, hour12] = await Promise.all([guestPlace(booking, m), guestSharedOf(booking), guestClock(zone)]);
  // A paid booking (decisions §20): Stripe's success_url brings the guest back here with ?payment=done.
  const payment = await managePayment(booking, { locale, messages, zone, hour12 }, query.payment === "done");
  const awaiting = booking.status === "awaiting_payment";
  const released = payment?.kind === "released";
  const answers = questions.flatMap((q) => {
    const answer = Object.hasOwn(booking.customAnswers, q.id) ? booking.customAnswers[q.id] : undefined;
    return answer ? [{ id: q.id, label: q.label, lines: readableAnswer(q, answer, readablePhone), list: q.type === "checkboxes" }] : [];
  });
  const heading = released ? p.releasedTitle : cancelled ? p.isCancelled : past ? p.hasPassed : awaiting ? p.awaitingTitle : booking.status === "pending" ? p.isRequested : p.yourBooking;

  return (
    <GuestI18n locale={locale} source={source} messages={m}>
      <Container className="sm:py-16" lang={locale}>
        <div className="flex flex-col gap-2">
          <h1 className="text-3xl font-semibold tracking-tight">{heading}</h1>
          {booking.status === "pending" && !past && <p className="text-slate-600">{fill(p.pendingNote, host)}</p>}
        </div>
        {payment && (payment.kind === "awaiting" || payment.kind === "confirming" || payment.kind === "released") && (
          <div data-testid="payment-state" data-state={payment.kind} className="flex flex-col items-start gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4 text-amber-950">
            <p role="status">{payment.text}</p>
            {payment.kind === "awaiting" && payment.payUrl && (
              <a href={payment.payUrl} className={buttonClass("primary")}>
                {p.payNow}
              </a>
            )}
            {payment.kind === "released" && (
              <Link href={homePath} className={buttonClass("primary")}>
                {fill(m.bookAnother, { host: homeName })}
              </Link>
            )}
            {/* Stripe tells this service on its own, usually before the guest is back: until it
                has, the page looks again by itself (no script: a plain refresh of this address). */}
            {payment.kind === "confirming" && <meta httpEquiv="refresh" content={String(CONFIRMING_REFRESH_SECONDS)} />}
          </div>
        )}
        <dl
          data-testid="booking-details"
          className={`grid grid-cols-1 gap-x-6 gap-y-0.5 rounded-lg sm:grid-cols-[fit-content(14rem)_minmax(0,1fr)] sm:gap-y-2 border bg-white p-5 ${cancelled ? "border-slate-200 text-slate-500" : "border-slate-200"}`}
        >
          <Row label={m.what}>
            <span className={cancelled ? "line-through" : "font-medium"}>{title}</span>
          </Row>
          <Row label={m.with}>{hostName}</Row>
          <Row label={m.when}>
            {formatLongDay(start, zone, { year: true, locale: intl })},{" "}
            <span className="whitespace-nowrap">{formatClockRange(start, end, zone, hour12, intl)}</span>
            <br />
            <span className="text-sm text-slate-500">{zoneName(zone, booking.startTime, intl)}</span>
            {shared.seat && !cancelled && <span className="block text-sm text-slate-600">{fill(p.seatTaken, { taken: shared.seat.taken, max: shared.seat.max })}</span>}
          </Row>
          {place && (
            <Row label={m.where}>
              <MeetingPlace location={place} />
            </Row>
          )}
          <Row label={p.bookedBy}>
            {booking.guestName}
            {booking.guestEmail && <span className="block break-all text-sm text-slate-500">{booking.guestEmail}</span>}
          </Row>
          {answers.map((a) => (
            <Row key={a.id} label={a.label}>
              <AnswerValue lines={a.lines} list={a.list} />
            </Row>
          ))}
          {payment && (payment.kind === "paid" || payment.kind === "refunded" || payment.kind === "kept") && (
            <Row label={p.paymentLabel}>
              <span data-testid="payment" data-state={payment.kind}>
                {payment.text}
              </span>
            </Row>
          )}
          {cancelled && booking.cancellationReason && <Row label={p.reasonLabel}>{booking.cancellationReason}</Row>}
        </dl>
        {shared.series.length > 0 && (
          <section aria-labelledby="series" className="flex flex-col gap-2">
            <h2 id="series" className="font-semibold">
              {p.seriesHeading}
            </h2>
            <ol data-testid="series" className="flex flex-col divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
              {shared.series.map((o) => {
                const when = (
                  <>
                    {formatLongDay(isoUtc(o.startTime), zone, { year: true, locale: intl })},{" "}
                    <span className="whitespace-nowrap">{formatClockRange(isoUtc(o.startTime), isoUtc(o.endTime), zone, hour12, intl)}</span>
                  </>
                );
                const gone = o.status === "cancelled";
                return (
                  <li key={o.id} data-status={o.status} aria-current={o.own ? "page" : undefined} className={`flex flex-wrap items-baseline justify-between gap-x-3 px-4 py-2 ${o.own ? "bg-slate-50 font-medium" : ""}`}>
                    <span className={gone ? "text-slate-400 line-through" : ""}>
                      {o.own || !o.manageUrl || gone ? when : (
                        <Link href={o.manageUrl} className="underline underline-offset-2">
                          {when}
                        </Link>
                      )}
                    </span>
                    <span className="text-sm text-slate-500">{o.own ? p.thisSession : gone ? p.sessionCancelled : ""}</span>
                  </li>
                );
              })}
            </ol>
          </section>
        )}
        {released ? null : cancelled ? (
          <div className="flex flex-col items-start gap-3">
            <p className="text-slate-600">{booking.cancelledBy === "guest" ? p.youCancelled : fill(p.hostCancelled, host)}</p>
            <Link href={homePath} className={buttonClass("primary")}>
              {fill(m.bookAnother, { host: homeName })}
            </Link>
          </div>
        ) : past ? (
          <p className="text-slate-600">{p.noLongerChange}</p>
        ) : (
          <>
            <section aria-labelledby="change" className="flex flex-col gap-3">
              <h2 id="change" className="font-semibold">
                {p.needChange}
              </h2>
              <div className="flex flex-wrap gap-3">
                {/* Not while the time is only held for a payment: a held booking cannot move (decisions §20). */}
                {!awaiting && (
                  <Link href={`/reschedule/${encodeURIComponent(token)}`} className={buttonClass("secondary")}>
                    {p.reschedule}
                  </Link>
                )}
                <Link href={`/cancel/${encodeURIComponent(token)}`} className={buttonClass("danger")}>
                  {p.cancelBooking}
                </Link>
              </div>
            </section>
            {/* Nothing in a calendar yet while the time is only held. */}
            {!awaiting && (
              <section aria-labelledby="calendar" className="flex flex-col gap-3">
                <h2 id="calendar" className="font-semibold">
                  {p.addHeading}
                </h2>
                <CalendarButtons
                  token={token}
                  title={fill(m.eventWith, { title, host: hostName })}
                  startTime={start}
                  endTime={end}
                  location={place}
                  details={fill(m.calendarDetails, { url: guestLinks(token).manageUrl })}
                  labels={calendarLabels(m)}
                />
              </section>
            )}
          </>
        )}
        <LanguageFooter />
      </Container>
    </GuestI18n>
  );
}
