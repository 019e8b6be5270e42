import "server-only";
import type { Metadata } from "next";
import { cookies } from "next/headers";
import type { Messages } from "@/lib/i18n/en";
import { guestLanguage } from "@/lib/i18n/server";
import { awaitsMeetingLink } from "@/lib/meeting-location";
import { findGuestBooking } from "@/lib/services/bookings/cancel";
import { meetingLinkComing } from "@/lib/services/bookings/meeting-link";
import { seriesOfGuestBooking } from "@/lib/services/bookings/guest-series";
import { loadPeopleOf } from "@/lib/services/bookings/people";
import type { BookingRow } from "@/db/schema";
import { getDb } from "@/lib/store/database";
import { CLOCK_KEY, parseClock } from "@/lib/time/clock-preference";
import { hour12InZone } from "@/lib/time/reader-clock";

// What the guest's token pages (/booking, /cancel and /reschedule/{token}) share: the token is
// the page's secret, so no page is indexed or names its URL onward; each reads the booking behind
// the token and speaks the guest's language (their choice, else the one they booked in).

export const privatePage: Metadata = {
  robots: { index: false, follow: false },
  // The token is in this page's URL: never send it onward as a Referer.
  referrer: "no-referrer",
};

export type TokenPageProps = { params: Promise<{ token: string }>; searchParams: Promise<{ lang?: string | string[] }> };

/** The booking behind the token, or undefined (the page answers 404). */
export async function guestBookingOf(token: string) {
  return findGuestBooking(await getDb(), token);
}

/** What the booking shares with others (decisions §19): its series' occurrences (each with its page), its start's seats. */
export async function guestSharedOf(booking: BookingRow) {
  const db = await getDb();
  const [series, people] = await Promise.all([seriesOfGuestBooking(db, booking), booking.seatKey ? loadPeopleOf(db, booking.id) : undefined]);
  return { series, seat: people?.seat ?? null };
}

/** The page's metadata: private, titled in the guest's language. */
export async function tokenPageMetadata({ params, searchParams }: TokenPageProps, title: (messages: Messages) => string): Promise<Metadata> {
  const found = await guestBookingOf((await params).token);
  const { messages } = await guestLanguage({ param: (await searchParams).lang, stored: found?.booking.guestLanguage });
  return { ...privatePage, title: title(messages) };
}

/**
 * A booking's place as its guest reads it: the place, the meeting link, or for a `video` booking
 * without one, that the link is on its way by email (still being made) or that the host sends it.
 */
export async function guestPlace(booking: { location: string; hostId: string; createdAt: Date }, words: Messages["page"]): Promise<string> {
  if (!awaitsMeetingLink(booking.location)) return booking.location;
  const coming = await meetingLinkComing(await getDb(), booking, Date.now());
  return `${words.videoCall} (${coming ? words.videoLinkComing : words.videoLinkByHost})`;
}

/** The clock the guest chose on the booking page (its cookie), else the one of their zone's country (as their emails). */
export async function guestClock(zone: string): Promise<boolean> {
  return parseClock((await cookies()).get(CLOCK_KEY)?.value) ?? hour12InZone(zone);
}
