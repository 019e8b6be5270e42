import "server-only";
import { HOST_NO_LINK, readableLocation } from "@/lib/meeting-location";
import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gte, ne } from "drizzle-orm";
import ical, { ICalEventStatus } from "ical-generator";
import type { Db } from "@/db";
import { bookings, eventTypes, users, type UserRow } from "@/db/schema";
import { hostedBy } from "@/lib/services/bookings/store";
import { readablePhone } from "@/lib/phone";
import { readableAnswer } from "@/lib/question-answers";
import { bookingUid, dashboardBookingsUrl, feedUrl } from "@/lib/links";

// A host's bookings as an iCalendar subscription (issue 12): any calendar app can subscribe to
// the secret URL, no OAuth connection needed. The URL's secret is 256 random bits, stored only
// as its SHA-256; asking for a new URL replaces it, so the old one stops working at once.

/** Bookings from this long ago on are in the feed (calendar apps keep what they fetched before). */
const RECENT_DAYS = 30;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** POST /me/calendar-feed: a new secret feed URL for the host; the previous one stops working. */
export async function rotateCalendarFeed(db: Db, host: UserRow): Promise<{ url: string }> {
  const token = randomBytes(32).toString("base64url");
  await db.update(users).set({ feedTokenHash: hashToken(token) }).where(eq(users.id, host.id));
  return { url: feedUrl(token) };
}

/** The feed behind a token as iCalendar text, or undefined for an unknown (or replaced) token. */
export async function calendarFeed(db: Db, token: string, now: number): Promise<string | undefined> {
  const [host] = await db.select().from(users).where(eq(users.feedTokenHash, hashToken(token))).limit(1);
  if (!host) return undefined;
  const rows = await db
    .select({ booking: bookings, title: eventTypes.title, questions: eventTypes.customQuestions })
    .from(bookings)
    .innerJoin(eventTypes, eq(eventTypes.id, bookings.eventTypeId))
    // A hold waiting for its payment is not in the feed until it is paid (decisions §20).
    .where(and(hostedBy(host.id), ne(bookings.status, "awaiting_payment"), gte(bookings.endTime, new Date(now - RECENT_DAYS * 86_400_000))))
    .orderBy(asc(bookings.startTime), asc(bookings.id));

  const calendar = ical({
    name: `Bookings of ${host.fullName}`,
    prodId: { company: "booking-service", product: "host-feed", language: "EN" },
    // No calendar timezone: with one and no VTIMEZONE, ical-generator writes floating local times
    // in the server's own zone (a 09:00 Berlin booking showed at 08:00). Absolute UTC times (`Z`)
    // mean the same instant in every calendar app, which shows them in its reader's zone.
    ttl: 15 * 60,
  });
  for (const { booking, title, questions } of rows) {
    const asked = new Map(questions.map((q) => [q.id, q]));
    const answers = Object.entries(booking.customAnswers).map(
      ([id, answer]) => `${asked.get(id)?.label ?? id}: ${readableAnswer(asked.get(id), answer, readablePhone).join(", ")}`,
    );
    calendar.createEvent({
      id: bookingUid(booking.id),
      start: booking.startTime,
      end: booking.endTime,
      // Stamps from the row, not the clock: the same bookings give the same text (and ETag).
      stamp: booking.updatedAt,
      lastModified: booking.updatedAt,
      created: booking.createdAt,
      summary: `${title} with ${booking.guestName}`,
      description: [`Guest: ${booking.guestName} <${booking.guestEmail}>`, ...answers, booking.cancellationReason ? `Cancelled: ${booking.cancellationReason}` : ""]
        .filter(Boolean)
        .join("\n"),
      location: readableLocation(booking.location, HOST_NO_LINK) || null,
      status: booking.status === "cancelled" ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      url: dashboardBookingsUrl(),
    });
  }
  return calendar.toString();
}
