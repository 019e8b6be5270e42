import { eventTypePlace } from "@/lib/meeting-location";
import type { Metadata } from "next";
import { PublicListing } from "@/components/booking/public-listing";
import { getDb } from "@/lib/store/database";
import { fill } from "@/lib/i18n/fill";
import { guestLanguage } from "@/lib/i18n/server";
import { orNotFoundPage } from "@/lib/pages";
import { getPublicTeamOrThrow } from "@/lib/services/bookable/public";

// /team/{teamSlug}: a team's public page, listing what a guest can book with it (decisions §15).

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ teamSlug: string }>; searchParams: Promise<{ lang?: string | string[] }> };

async function load(teamSlug: string) {
  return orNotFoundPage(getPublicTeamOrThrow(await getDb(), teamSlug));
}

export async function generateMetadata({ params, searchParams }: Params): Promise<Metadata> {
  const [{ team }, { messages }] = await Promise.all([load((await params).teamSlug), guestLanguage({ param: (await searchParams).lang })]);
  return { title: fill(messages.pages.hostTitle, { host: team.name }) };
}

export default async function TeamPage({ params, searchParams }: Params) {
  const { team, eventTypes } = await load((await params).teamSlug);
  const language = await guestLanguage({ param: (await searchParams).lang });
  const items = eventTypes.map((e) => ({
    id: e.id,
    href: `/team/${team.slug}/${e.slug}`,
    title: e.title,
    durationMinutes: e.durationMinutes,
    location: eventTypePlace(e.location, language.messages.page),
    description: e.description,
  }));
  // A team has no picture of its own: its initials in the circle.
  return <PublicListing owner={{ name: team.name, avatarUrl: null, bio: team.bio }} items={items} language={language} />;
}
