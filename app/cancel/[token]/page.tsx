import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CancelBookingForm } from "@/components/booking/cancel-booking-form";
import { GuestI18n, LanguageFooter } from "@/components/booking/guest-i18n";
import { QueryProvider } from "@/components/booking/query-provider";
import { buttonClass } from "@/components/ui/button";
import { Container } from "@/components/ui/container";
import { fill } from "@/lib/i18n/fill";
import { guestLanguage } from "@/lib/i18n/server";
import { INTL_TAG } from "@/lib/i18n/locales";
import { formatClockRange, formatLongDay } from "@/lib/time/format";
import { isoUtc } from "@/lib/time/instants";
import { zoneName } from "@/lib/time/zones";
import { MeetingPlace } from "@/components/booking/meeting-place";
import { cancelPayment } from "@/lib/guest/payment-words";
import { guestBookingOf, guestClock, guestPlace, guestSharedOf, tokenPageMetadata, type TokenPageProps } from "@/lib/guest/token-pages";

// /cancel/{token}: where a guest's cancelUrl leads. Opening it only shows the booking; cancelling
// takes a click, so mail scanners and link previews that fetch the URL cancel nothing.

export const dynamic = "force-dynamic";

/** The booking behind the token, and whether it has started (it can no longer be cancelled then). */
async function loadBooking(token: string) {
  const found = await guestBookingOf(token);
  return found && { ...found, past: found.booking.startTime.getTime() <= Date.now() };
}

type Props = TokenPageProps;

export function generateMetadata(props: Props): Promise<Metadata> {
  return tokenPageMetadata(props, (messages) => messages.pages.cancelTitle);
}

export default async function CancelPage({ params, searchParams }: Props) {
  const { token } = await params;
  const found = await loadBooking(token);
  if (!found) notFound();
  const { booking, title, hostName, homePath, homeName, past } = found;
  // The guest's chosen language, else the one they booked in.
  const { locale, source, messages } = await guestLanguage({ param: (await searchParams).lang, stored: booking.guestLanguage });
  const { page: m, pages: p } = messages;
  const intl = INTL_TAG[locale];
  const zone = booking.guestTimezone;
  const start = isoUtc(booking.startTime);
  const end = isoUtc(booking.endTime);
  // A series' occurrence may be cancelled with the later ones still to come (decisions §19).
  const { series } = await guestSharedOf(booking);
  // (The form shows only before this one starts: every later one is still to come then.)
  const later = series.filter((o) => o.startTime > booking.startTime && o.status !== "cancelled");
  // A paid booking: whether this cancel is refunded, said before the click (decisions §20).
  const payment = booking.status === "cancelled" || past ? undefined : await cancelPayment(booking, later, { locale, messages });

  return (
    <GuestI18n locale={locale} source={source} messages={m}>
      <Container lang={locale}>
        <h1 className="text-3xl font-semibold tracking-tight">{booking.status === "cancelled" ? p.isCancelled : p.cancelTitle}</h1>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-0.5 rounded-lg border border-slate-200 bg-white p-5 sm:grid-cols-[fit-content(14rem)_minmax(0,1fr)] sm:gap-y-2 [&>dd]:min-w-0 [&>dd]:break-words [&>dt:not(:first-child)]:mt-3 sm:[&>dt:not(:first-child)]:mt-0">
          <dt className="text-slate-500">{m.what}</dt>
          <dd>{fill(m.eventWith, { title, host: hostName })}</dd>
          <dt className="text-slate-500">{m.when}</dt>
          <dd>
            {formatLongDay(start, zone, { year: true, locale: intl })},{" "}
            <span className="whitespace-nowrap">{formatClockRange(start, end, zone, await guestClock(zone), intl)}</span>
            <br />
            <span className="text-sm text-slate-500">{zoneName(zone, booking.startTime, intl)}</span>
            <br />
            <Link href={`/booking/${encodeURIComponent(token)}`} className="text-sm text-blue-700 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-blue-600">
              {p.seeWhole}
            </Link>
          </dd>
          {booking.location && (
            <>
              <dt className="text-slate-500">{m.where}</dt>
              <dd>
                <MeetingPlace location={await guestPlace(booking, m)} />
              </dd>
            </>
          )}
          <dt className="text-slate-500">{p.bookedBy}</dt>
          <dd>{booking.guestName}</dd>
        </dl>
        {booking.status === "cancelled" ? (
          <div className="flex flex-col items-start gap-3">
            <p className="text-slate-600">{p.nothingMore}</p>
            <Link href={homePath} className={buttonClass("primary")}>
              {fill(m.bookAnother, { host: homeName })}
            </Link>
          </div>
        ) : past ? (
          <p className="text-slate-600">{p.cannotCancelStarted}</p>
        ) : (
          <QueryProvider>
            <CancelBookingForm token={token} homePath={homePath} homeName={homeName} hostName={hostName} laterSessions={later.length} payment={payment} />
          </QueryProvider>
        )}
        <LanguageFooter />
      </Container>
    </GuestI18n>
  );
}
