import type { Metadata } from "next";
import { BookablePage, bookableMetadata } from "@/app/_booking/bookable-page";

// /{username}/{slug}: a host's event type's booking page (app/_booking/bookable-page.tsx).

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ username: string; slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params, searchParams }: Params): Promise<Metadata> {
  const { username, slug } = await params;
  return bookableMetadata({ username }, slug, await searchParams);
}

export default async function BookingPage({ params, searchParams }: Params) {
  const { username, slug } = await params;
  return <BookablePage owner={{ username }} slug={slug} query={await searchParams} />;
}
