import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { GuestI18n } from "@/components/booking/guest-i18n";
import { GuestReschedule } from "@/components/booking/guest-reschedule";
import { guestLanguage } from "@/lib/i18n/server";
import { isoUtc } from "@/lib/time/instants";
import { guestBookingOf, guestPlace, tokenPageMetadata, type TokenPageProps } from "@/lib/guest/token-pages";

// /reschedule/{token}: where a guest's rescheduleUrl leads. Opening it shows the booking and the
// event type's open times; only picking a time and confirming moves anything (POST
// /api/v1/public/reschedule), so link previews that fetch the URL change nothing.

export const dynamic = "force-dynamic";

/** The booking behind the token, and whether it can still be moved. */
async function loadBooking(token: string) {
  const found = await guestBookingOf(token);
  if (!found) return undefined;
  const { booking } = found;
  const state = booking.status === "cancelled" ? "cancelled" : booking.startTime.getTime() <= Date.now() ? "started" : found.eventActive ? "open" : "closed";
  return { ...found, state } as const;
}

type Props = TokenPageProps;

export function generateMetadata(props: Props): Promise<Metadata> {
  return tokenPageMetadata(props, (messages) => messages.page.rescheduleTitle);
}

export default async function ReschedulePage({ params, searchParams }: Props) {
  const { token } = await params;
  const found = await loadBooking(token);
  if (!found) notFound();
  const { booking, state } = found;
  // The guest's chosen language, else the one they booked in.
  const { locale, source, messages } = await guestLanguage({ param: (await searchParams).lang, stored: booking.guestLanguage });
  return (
    <GuestI18n locale={locale} source={source} messages={messages.page}>
      <GuestReschedule
        token={token}
        state={state}
        booking={{
          title: found.title,
          hostName: found.hostName,
          hostAvatarUrl: found.hostAvatarUrl,
          windowDays: found.hostMaxAdvanceDays,
          username: found.owner,
          slug: found.eventSlug,
          startTime: isoUtc(booking.startTime),
          endTime: isoUtc(booking.endTime),
          guestTimezone: booking.guestTimezone,
          location: await guestPlace(booking, messages.page),
        }}
      />
    </GuestI18n>
  );
}
