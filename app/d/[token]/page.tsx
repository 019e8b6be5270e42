import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { BookableView } from "@/app/_booking/bookable-page";
import { faceOf } from "@/app/_booking/bookable-face";
import { Container } from "@/components/ui/container";
import { fill } from "@/lib/i18n/fill";
import { guestLanguage } from "@/lib/i18n/server";
import { linkPageOf } from "@/lib/guest/one-time-link-page";
import { privatePage } from "@/lib/guest/token-pages";
import { windowDaysOf } from "@/lib/services/bookable/bookable";
import { dayOf } from "@/lib/time/in-words";

// /d/{token}: a one-time link (decisions §21), the event type's own booking page (app/_booking)
// reading and booking through /api/v1/public/links/{token}, so it works while the event type is
// switched off for the public. Used, expired or withdrawn: a plain page saying which, in the
// guest's language. (The App Router gives a page no status but 404's, so it answers 200 with
// noindex; the API's routes answer 410.) Never kept by the page cache: each link is its own.

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const [page, language] = await Promise.all([linkPageOf((await params).token), guestLanguage({ param: (await searchParams).lang })]);
  const { messages } = language;
  if (!page) return privatePage;
  if (page.state === "ended") return { ...privatePage, title: endTitle(page.end, messages.pages) };
  const { bookable } = page;
  return { ...privatePage, title: fill(messages.pages.eventTitle, { title: bookable.eventType.title, host: faceOf(bookable, language).name }) };
}

type Words = Awaited<ReturnType<typeof guestLanguage>>["messages"]["pages"];

function endTitle(end: "used" | "expired" | "withdrawn", p: Words): string {
  return end === "used" ? p.linkUsedTitle : end === "expired" ? p.linkExpiredTitle : p.linkWithdrawnTitle;
}

export default async function OneTimeLinkPage({ params, searchParams }: Props) {
  const { token } = await params;
  const query = await searchParams;
  const page = await linkPageOf(token);
  if (!page) notFound();
  const language = await guestLanguage({ param: query.lang });
  if (page.state === "open") {
    const face = faceOf(page.bookable, language);
    return (
      <BookableView
        bookable={page.bookable}
        language={language}
        face={face}
        api={{ owner: "links", slug: token }}
        embed={query.embed === "1"}
        windowDays={windowDaysOf(page.bookable)}
        preview={undefined}
        single
      />
    );
  }
  const { locale, messages } = language;
  const p = messages.pages;
  const host = { host: page.ownerName };
  const why =
    page.end === "used" ? p.linkUsedText : page.end === "expired" ? fill(p.linkExpiredText, { day: dayOf(page.link.expiresAt.getTime(), page.hostTimezone, locale) }) : fill(p.linkWithdrawnText, host);
  return (
    <Container lang={locale}>
      <h1 className="text-3xl font-semibold tracking-tight">{endTitle(page.end, p)}</h1>
      <p className="text-slate-700">{why}</p>
      <p className="text-slate-700">{fill(p.linkAskHost, host)}</p>
      {page.homePath && (
        <p>
          <Link href={page.homePath} className="font-medium text-blue-700 underline underline-offset-2 hover:text-blue-900">
            {fill(p.linkSeePage, host)}
          </Link>
        </p>
      )}
    </Container>
  );
}
