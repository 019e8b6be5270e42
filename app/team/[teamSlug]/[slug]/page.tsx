import { eventTypePlace } from "@/lib/meeting-location";
import type { Metadata } from "next";
import { BookingWidget } from "@/components/booking/booking-widget";
import { EventSummary } from "@/components/booking/event-summary";
import { GuestI18n } from "@/components/booking/guest-i18n";
import { getDb } from "@/lib/store/database";
import { teamOwner } from "@/lib/browser/api-client/public";
import { fill } from "@/lib/i18n/fill";
import { INTL_TAG } from "@/lib/i18n/locales";
import { guestLanguage } from "@/lib/i18n/server";
import { orNotFoundPage } from "@/lib/pages";
import { windowDaysOf } from "@/lib/services/bookable/bookable";
import { getPublicBookableCached } from "@/lib/services/bookable/bookable";

// /team/{teamSlug}/{slug}: a team event type's booking page (decisions §15). The same widget as
// a host's page, asking the team's public routes: round robin offers a time when any host is
// free, collective when every host is. The guest sees who they may meet, never who is busy.

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ teamSlug: string; slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

async function load(teamSlug: string, slug: string) {
  const bookable = await orNotFoundPage(getPublicBookableCached(await getDb(), { teamSlug }, slug));
  return { bookable, team: bookable.team, eventType: bookable.eventType, hosts: bookable.hosts.map((h) => h.host) };
}

export async function generateMetadata({ params, searchParams }: Params): Promise<Metadata> {
  const { teamSlug, slug } = await params;
  const [{ team, eventType }, { messages }] = await Promise.all([load(teamSlug, slug), guestLanguage({ param: (await searchParams).lang })]);
  return { title: fill(messages.pages.eventTitle, { title: eventType.title, host: team.name }) };
}

export default async function TeamBookingPage({ params, searchParams }: Params) {
  const { teamSlug, slug } = await params;
  const query = await searchParams;
  const embed = query.embed === "1";
  const { bookable, team, eventType, hosts } = await load(teamSlug, slug);
  const { locale, source, messages } = await guestLanguage({ param: query.lang });
  const roundRobin = eventType.schedulingType === "round_robin";
  const names = new Intl.ListFormat(INTL_TAG[locale], { type: roundRobin ? "disjunction" : "conjunction" }).format(hosts.map((h) => h.fullName));
  // How far ahead the team takes bookings: the event type's own window, else as far as its furthest host does.
  const windowDays = windowDaysOf(bookable);
  return (
    <main lang={locale} className={embed ? "min-h-screen w-full bg-white" : "mx-auto w-full max-w-5xl px-3 py-3 sm:px-6 sm:py-12"}>
      <div className={`grid overflow-hidden bg-white lg:grid-cols-[18rem_minmax(0,1fr)] ${embed ? "" : "rounded-xl border border-slate-200 shadow-sm"}`}>
        <EventSummary
          locale={locale}
          compact={embed}
          host={{ name: team.name, avatarUrl: null }}
          with={hosts.length > 0 ? fill(roundRobin ? messages.pages.teamOneHost : messages.pages.teamAllHosts, { hosts: names }) : undefined}
          event={{ title: eventType.title, durationMinutes: eventType.durationMinutes, location: eventTypePlace(eventType.location, messages.page), description: eventType.description }}
        />
        <div className={`min-w-0 ${embed ? "p-3 sm:p-4" : "p-4 sm:p-6"}`}>
          <GuestI18n locale={locale} source={source} messages={messages.page}>
            <BookingWidget
              username={teamOwner(team.slug)}
              slug={slug}
              event={{ title: eventType.title, hostName: roundRobin ? team.name : names, location: eventType.location }}
              questions={eventType.customQuestions}
              windowDays={windowDays}
              embed={embed}
              requiresConfirmation={eventType.requiresConfirmation}
            />
          </GuestI18n>
        </div>
      </div>
    </main>
  );
}
