import type { Metadata } from "next";
import { BookablePage, bookableMetadata } from "@/app/_booking/bookable-page";

// /team/{teamSlug}/{slug}: a team event type's booking page (decisions §15), the same page as a
// host's (app/_booking/bookable-page.tsx). The guest sees who they may meet, never who is busy.

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ teamSlug: string; slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params, searchParams }: Params): Promise<Metadata> {
  const { teamSlug, slug } = await params;
  return bookableMetadata({ teamSlug }, slug, await searchParams);
}

export default async function TeamBookingPage({ params, searchParams }: Params) {
  const { teamSlug, slug } = await params;
  return <BookablePage owner={{ teamSlug }} slug={slug} query={await searchParams} />;
}
