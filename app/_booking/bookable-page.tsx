import "server-only";
import type { Metadata } from "next";
import { AwayNotice } from "@/components/booking/away-notice";
import { BookingWidget } from "@/components/booking/booking-widget";
import { EventSummary } from "@/components/booking/event-summary";
import { GuestI18n } from "@/components/booking/guest-i18n";
import { slotsPath } from "@/lib/browser/api-client/public";
import { slotsPrefetchScript } from "@/lib/browser/api-client/slots-prefetch";
import { awayWords, type AwayNoticeWords } from "@/lib/guest/away-words";
import { fill } from "@/lib/i18n/fill";
import { INTL_TAG } from "@/lib/i18n/locales";
import { formatMoney } from "@/lib/payments/money";
import { guestLanguage, type GuestLanguage } from "@/lib/i18n/server";
import { eventTypePlace } from "@/lib/meeting-location";
import { orNotFoundPage } from "@/lib/pages";
import { dependenciesOf, getPublicBookableCached, personalHost, windowDaysOf, type Bookable, type PublicOwner } from "@/lib/services/bookable/bookable";
import { awayNoticeOf, type AwayAnswer } from "@/lib/services/time-off/away";
import { keepRenderedPage } from "@/lib/http/page-cache";
import { getDb } from "@/lib/store/database";
import { faceOf, type BookableFace } from "./bookable-face";
import type { SlotsPreview } from "@/components/booking/slot-picker";
import { monthsToPrefetch, slotsPreview } from "./slots-preview";

// The guest's booking page, for /{username}/{slug} and /team/{teamSlug}/{slug} alike: both
// resolve to one Bookable (lib/services/bookable/bookable.ts), rendered here. The page renders the
// event; the widget lists slots and books through the public API, the same one any other client
// uses (round robin offers a time when any host is free, collective when every host is).
//
// A host's page (whose zone is known) carries in its HTML the first open month's calendar and,
// where the times go, words saying they are loading (slots-preview.ts); an inline script asks for
// the guest's own zone's times at once, while the bundles load. A team's page has neither yet:
// its widget asks once it runs.
//
// Nothing on the page is the guest's own until the browser knows their zone, so npm start keeps
// the rendered page and answers the next guests in the same language with it, until what it was
// made of changes (lib/http/page-cache.ts).

type Query = Record<string, string | string[] | undefined>;

const NOT_AWAY: AwayAnswer = { notice: null, deps: [], validUntil: Infinity };

const load = async (owner: PublicOwner, slug: string) => orNotFoundPage(getPublicBookableCached(await getDb(), owner, slug));

export async function bookableMetadata(owner: PublicOwner, slug: string, query: Query): Promise<Metadata> {
  const [bookable, language] = await Promise.all([load(owner, slug), guestLanguage({ param: query.lang })]);
  return { title: fill(language.messages.pages.eventTitle, { title: bookable.eventType.title, host: faceOf(bookable, language).name }) };
}

export async function BookablePage({ owner, slug, query }: { owner: PublicOwner; slug: string; query: Query }) {
  // ?embed=1: inside another site's iframe (server.mjs lets any site frame this page then):
  // no page margins, a compact card, and the parent page hears about the booking.
  const embed = query.embed === "1";
  const bookable = await load(owner, slug);
  // The guest's language (?lang=, their remembered choice, their browser's); the browser gets its words only.
  const language = await guestLanguage({ param: query.lang });
  const face = faceOf(bookable, language);
  // The event type's own booking window, else as far as its furthest host's (decisions §16).
  const windowDays = windowDaysOf(bookable);
  const [{ preview, validUntil }, away] = await Promise.all([
    face.hostTimezone ? slotsPreview(owner, slug, face.hostTimezone, windowDays) : { preview: undefined, validUntil: Infinity },
    // A personal host's time off (decisions §21); a team's page says nothing of one host's.
    bookable.team ? NOT_AWAY : getDb().then((db) => awayNoticeOf(db, personalHost(bookable), slug)),
  ]);
  // The same page for every guest in this language until its hosts (or the colleague its away
  // line links to), team or event type change, or its first open month or its away line could
  // change with the clock (the host's next midnight while time off lies ahead; lib/http/page-cache.ts).
  await keepRenderedPage({ deps: [...dependenciesOf(bookable), ...away.deps], validUntil: Math.min(validUntil, away.validUntil) });
  return (
    <BookableView
      bookable={bookable}
      language={language}
      face={face}
      api={{ owner: face.apiOwner, slug }}
      embed={embed}
      windowDays={windowDays}
      preview={preview}
      away={away.notice ? awayWords(away.notice, language) : undefined}
    />
  );
}

/**
 * The page itself, for any entry: a public path's, or a one-time link's (app/d/[token], whose
 * widget reads and books through /public/links/{token}: `api`). Without a preview, the picker
 * shows no first-paint month and finds its own.
 */
export function BookableView(props: {
  bookable: Bookable;
  language: GuestLanguage;
  face: BookableFace;
  api: { owner: string; slug: string };
  embed: boolean;
  windowDays: number;
  preview: SlotsPreview | undefined;
  /** A one-time link books one time: no series offered. */
  single?: boolean;
  /** A personal host's time off, in the guest's words (decisions §21); none on a one-time link's page. */
  away?: AwayNoticeWords;
}) {
  const { bookable, face, api, embed, windowDays, preview } = props;
  const { eventType } = bookable;
  const { locale, source, messages } = props.language;
  const recurrence = props.single ? undefined : (eventType.recurrence ?? undefined);
  // A paid event type's price, written on the server in the guest's language (no JavaScript for
  // it); a series is paid per session, all at once (decisions §20).
  const money = eventType.price && formatMoney(eventType.price.amount, eventType.price.currency, INTL_TAG[locale]);
  const price = money ? (recurrence ? fill(messages.pages.pricePerSession, { price: money }) : money) : undefined;
  return (
    <main lang={locale} className={embed ? "min-h-screen w-full bg-white" : "mx-auto w-full max-w-5xl px-3 py-3 sm:px-6 sm:py-12"}>
      {props.away && (
        <div className={embed ? "p-3 pb-0 sm:p-4 sm:pb-0" : "mb-3 sm:mb-4"}>
          <AwayNotice words={props.away} />
        </div>
      )}
      <div className={`grid overflow-hidden bg-white lg:grid-cols-[18rem_minmax(0,1fr)] ${embed ? "" : "rounded-xl border border-slate-200 shadow-sm"}`}>
        <EventSummary
          locale={locale}
          compact={embed}
          host={{ name: face.name, avatarUrl: face.avatarUrl }}
          with={face.with}
          event={{ title: eventType.title, durationMinutes: eventType.durationMinutes, location: eventTypePlace(eventType.location, messages.page), description: eventType.description, price }}
        />
        <div className={`min-w-0 ${embed ? "p-3 sm:p-4" : "p-4 sm:p-6"}`}>
          <GuestI18n locale={locale} source={source} messages={messages.page}>
            <BookingWidget
              username={api.owner}
              slug={api.slug}
              hostTimezone={face.hostTimezone}
              event={{ title: eventType.title, hostName: face.hostName, location: eventType.location }}
              questions={eventType.customQuestions}
              windowDays={windowDays}
              embed={embed}
              preview={preview}
              requiresConfirmation={eventType.requiresConfirmation}
              recurrence={recurrence}
              seatsMax={eventType.seats?.max}
              paid={eventType.price !== null}
            />
          </GuestI18n>
        </div>
      </div>
      {/* After the content, not before it: the first inline script of a page costs the parser the
          script engine's start (10–15 ms) and the browser tends to paint a first frame right after
          it, so placed first the page's first frame had its background and no text. The script
          waits for the first contentful paint anyway, and the guest's first slots requests still
          leave while the bundles load. */}
      {face.hostTimezone && (
        <script dangerouslySetInnerHTML={{ __html: slotsPrefetchScript({ path: slotsPath(api.owner, api.slug), windowDays, months: monthsToPrefetch(preview) }) }} />
      )}
    </main>
  );
}
