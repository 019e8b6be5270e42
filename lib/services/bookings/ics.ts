import "server-only";
import type { Db } from "@/db";
import { notFound } from "@/lib/errors";
import { messagesOf } from "@/lib/i18n/catalogs";
import { fill } from "@/lib/i18n/fill";
import { asLocale } from "@/lib/i18n/locales";
import { bookingIcs } from "@/lib/notifications/booking-ics";
import { hostNames } from "@/lib/notifications/booking-facts";
import { readableLocation } from "@/lib/meeting-location";
import { loadBookingFactsByGuestToken } from "./facts";
import { meetingLinkComing } from "./meeting-link";
import { guestLinks } from "@/lib/links";
import { seriesOccurrenceRows } from "./store";

/**
 * The guest's current invitation for their booking (GET /public/bookings/{token}.ics): the
 * REQUEST at the booking's present time and SEQUENCE, or its CANCEL once cancelled — the same
 * calendar object the emails carry, so importing it updates the event instead of adding one.
 */
export async function guestBookingIcs(db: Db, token: string): Promise<{ ics: string; title: string }> {
  const facts = await loadBookingFactsByGuestToken(db, token);
  if (!facts) throw notFound("Booking");
  const { booking, title, host } = facts;
  // In the guest's language, as their emails' invitations are.
  const language = asLocale(booking.guestLanguage);
  const messages = messagesOf(language);
  const page = messages.page;
  // A series (decisions §19): every occurrence as it is now, each under its own UID, so the link
  // in the series' one email adds (and later updates) all of them.
  const occurrences =
    booking.seriesId === null
      ? undefined
      : (await seriesOccurrenceRows(db, booking.seriesId)).map((o) => ({ bookingId: o.id, sequence: o.sequence, start: o.startTime, end: o.endTime, cancelled: o.status === "cancelled" }));
  const ics = bookingIcs({
    bookingId: booking.id,
    sequence: booking.sequence,
    // A series' CANCEL once all of it is: until then a REQUEST, its cancelled occurrences CANCELLED.
    cancelled: occurrences ? occurrences.every((o) => o.cancelled) : booking.status === "cancelled",
    summary: fill(page.eventWith, { title, host: hostNames(facts, language) }),
    start: booking.startTime,
    end: booking.endTime,
    // A meeting link still being made says so; one that will not come, that the host sends it.
    location: readableLocation(booking.location, {
      videoCall: messages.mail.videoCall,
      videoLinkByHost: (await meetingLinkComing(db, booking, Date.now())) ? page.videoLinkComing : messages.mail.videoLinkByHost,
    }),
    // The guest's copy says where to see or change the booking (the token is the guest's own).
    description: fill(page.calendarDetails, { url: guestLinks(token).manageUrl }),
    language,
    host: { name: host.fullName, email: host.email },
    guest: { name: booking.guestName, email: booking.guestEmail },
    stamp: booking.updatedAt,
    ...(occurrences ? { occurrences } : {}),
  });
  return { ics, title };
}
