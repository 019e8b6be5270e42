import { eventTypePlace } from "@/lib/meeting-location";
import type { Metadata } from "next";
import { headers } from "next/headers";
import { BookingWidget } from "@/components/booking/booking-widget";
import { EventSummary } from "@/components/booking/event-summary";
import { GuestI18n } from "@/components/booking/guest-i18n";
import type { SlotsPreview } from "@/components/booking/slot-picker";
import { getDb } from "@/lib/store/database";
import type { UserRow } from "@/db/schema";
import { slotsPath } from "@/lib/browser/api-client/public";
import { slotsPrefetchScript } from "@/lib/browser/api-client/slots-prefetch";
import { monthOf, weekStartOf } from "@/lib/time/month-grid";
import { fill } from "@/lib/i18n/fill";
import { guestLanguage } from "@/lib/i18n/server";
import { log } from "@/lib/log";
import { orNotFoundPage } from "@/lib/pages";
import { firstOpenMonth } from "@/lib/services/bookable/first-open-month";
import { personalHost, windowDaysOf } from "@/lib/services/bookable/bookable";
import { getPublicBookableCached } from "@/lib/services/bookable/bookable";

// /{username}/{slug}: the guest's booking page. The page renders the event; the widget lists
// slots and books through the public API, the same one any other client uses.
//
// The HTML carries the first open month's calendar (found in the host's zone) and, where the times
// go, words saying they are loading: no time, since the server knows no zone but the host's. An
// inline script asks for the guest's own zone's times at once, while the bundles load; the widget
// shows them when they are in, in the guest's zone only.

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ username: string; slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

async function load(username: string, slug: string) {
  const bookable = await orNotFoundPage(getPublicBookableCached(await getDb(), { username }, slug));
  return { bookable, host: personalHost(bookable), eventType: bookable.eventType };
}

/** The browser's first language (Accept-Language), for the preview's clock and first weekday. */
async function requestLocale(): Promise<string | undefined> {
  const tag = (await headers()).get("accept-language")?.split(",")[0]?.split(";")[0]?.trim();
  try {
    return tag && tag !== "*" ? new Intl.Locale(tag).toString() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The picker's first open month, found in the host's zone: its calendar only. The server knows no
 * zone but the host's, so it writes no time: the guest's own come with the browser's zone.
 */
async function slotsPreview(host: UserRow, windowDays: number, username: string, slug: string): Promise<SlotsPreview | undefined> {
  try {
    const zone = host.timezone;
    const open = await firstOpenMonth(await getDb(), { owner: { username }, slug, zone, windowDays, now: Date.now() });
    const locale = (await requestLocale()) ?? "en-US";
    const counts = new Map<string, number>();
    // displayStart is the slot's wall time in the zone asked for: its date is the day it lies on.
    for (const slot of open.slots) counts.set(slot.displayStart.slice(0, 10), (counts.get(slot.displayStart.slice(0, 10)) ?? 0) + 1);
    return { weekStart: weekStartOf(locale), today: open.today, lastDate: open.lastDate, month: open.month, counts: [...counts] };
  } catch (err) {
    log.warn({ err, username, slug }, "booking page: no preview of the first open times");
    return undefined;
  }
}

export async function generateMetadata({ params, searchParams }: Params): Promise<Metadata> {
  const { username, slug } = await params;
  const [{ host, eventType }, { messages }] = await Promise.all([load(username, slug), guestLanguage({ param: (await searchParams).lang })]);
  return { title: fill(messages.pages.eventTitle, { title: eventType.title, host: host.fullName }) };
}

export default async function BookingPage({ params, searchParams }: Params) {
  const { username, slug } = await params;
  // ?embed=1: inside another site's iframe (server.mjs lets any site frame this page then):
  // no page margins, a compact card, and the parent page hears about the booking.
  const query = await searchParams;
  const embed = query.embed === "1";
  const { bookable, host, eventType } = await load(username, slug);
  // The event type's own booking window, else the host's (decisions §16).
  const windowDays = windowDaysOf(bookable);
  // The guest's language (?lang=, their remembered choice, their browser's); the browser gets its words only.
  const { locale, source, messages } = await guestLanguage({ param: query.lang });
  const preview = await slotsPreview(host, windowDays, username, slug);
  // The guest's first month is most likely the host's: its months ask at once too (at most three).
  const months = preview ? Math.min(3, monthsBetween(monthOf(preview.today), preview.month) + 1) : 1;
  return (
    <main lang={locale} className={embed ? "min-h-screen w-full bg-white" : "mx-auto w-full max-w-5xl px-3 py-3 sm:px-6 sm:py-12"}>
      <div
        className={`grid overflow-hidden bg-white lg:grid-cols-[18rem_minmax(0,1fr)] ${embed ? "" : "rounded-xl border border-slate-200 shadow-sm"}`}
      >
        <EventSummary
          locale={locale}
          compact={embed}
          host={{ name: host.fullName, avatarUrl: host.avatarUrl }}
          event={{ title: eventType.title, durationMinutes: eventType.durationMinutes, location: eventTypePlace(eventType.location, messages.page), description: eventType.description }}
        />
        <div className={`min-w-0 ${embed ? "p-3 sm:p-4" : "p-4 sm:p-6"}`}>
          <GuestI18n locale={locale} source={source} messages={messages.page}>
            <BookingWidget
              username={username}
              slug={slug}
              hostTimezone={host.timezone}
              event={{ title: eventType.title, hostName: host.fullName, location: eventType.location }}
              questions={eventType.customQuestions}
              windowDays={windowDays}
              embed={embed}
              preview={preview}
              requiresConfirmation={eventType.requiresConfirmation}
            />
          </GuestI18n>
        </div>
      </div>
      {/* After the content, not before it: the first inline script of a page costs the parser the
          script engine's start (10–15 ms) and the browser tends to paint a first frame right after
          it, so placed first the page's first frame had its background and no text. The script
          waits for the first contentful paint anyway, and the guest's first slots requests still
          leave while the bundles load. */}
      <script dangerouslySetInnerHTML={{ __html: slotsPrefetchScript({ path: slotsPath(username, slug), windowDays, months }) }} />
    </main>
  );
}

/** Whole months from `from` to `to` ("YYYY-MM"). */
function monthsBetween(from: string, to: string): number {
  const index = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7));
  return index(to) - index(from);
}
