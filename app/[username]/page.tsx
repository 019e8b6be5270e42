import { eventTypePlace } from "@/lib/meeting-location";
import type { Metadata } from "next";
import { AwayNotice } from "@/components/booking/away-notice";
import { PublicListing } from "@/components/booking/public-listing";
import { awayWords } from "@/lib/guest/away-words";
import { getDb } from "@/lib/store/database";
import { fill } from "@/lib/i18n/fill";
import { guestLanguage } from "@/lib/i18n/server";
import { orNotFoundPage } from "@/lib/pages";
import { getPublicHostOrThrow } from "@/lib/services/bookable/public";
import { awayNoticeOf } from "@/lib/services/time-off/away";

// /{username}: the host's public page, listing what a guest can book.

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ username: string }>; searchParams: Promise<{ lang?: string | string[] }> };

async function load(username: string) {
  return orNotFoundPage(getPublicHostOrThrow(await getDb(), username));
}

export async function generateMetadata({ params, searchParams }: Params): Promise<Metadata> {
  const [{ host }, { messages }] = await Promise.all([load((await params).username), guestLanguage({ param: (await searchParams).lang })]);
  return { title: fill(messages.pages.hostTitle, { host: host.fullName }) };
}

export default async function HostPage({ params, searchParams }: Params) {
  const { username } = await params;
  const { host, eventTypes } = await load(username);
  const [language, away] = await Promise.all([guestLanguage({ param: (await searchParams).lang }), getDb().then((db) => awayNoticeOf(db, host, null))]);
  const items = eventTypes.map((e) => ({
    id: e.id,
    href: `/${username}/${e.slug}`,
    title: e.title,
    durationMinutes: e.durationMinutes,
    location: eventTypePlace(e.location, language.messages.page),
    description: e.description,
  }));
  const notice = away.notice ? <AwayNotice words={awayWords(away.notice, language)} /> : undefined;
  return <PublicListing owner={{ name: host.fullName, avatarUrl: host.avatarUrl, bio: host.bio }} items={items} language={language} notice={notice} />;
}
