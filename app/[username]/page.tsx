import type { Metadata } from "next";
import Link from "next/link";
import { GuestI18n, LanguageSelect } from "@/components/booking/guest-i18n";
import { Container } from "@/components/ui/container";
import { getDb } from "@/lib/store/database";
import { fill, formatDuration } from "@/lib/i18n/fill";
import { guestLanguage } from "@/lib/i18n/server";
import { orNotFoundPage } from "@/lib/pages";
import { getPublicHostOrThrow } from "@/lib/services/event-types/public";

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
  const { locale, source, messages } = await guestLanguage({ param: (await searchParams).lang });
  return (
    <GuestI18n locale={locale} source={source} messages={messages.page}>
      <Container lang={locale}>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h1 className="text-3xl font-semibold tracking-tight">{host.fullName}</h1>
          <LanguageSelect />
        </div>
        {eventTypes.length === 0 ? (
          <p className="text-slate-600">{messages.pages.nothingToBook}</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {eventTypes.map((e) => (
              <li key={e.id}>
                <Link
                  href={`/${username}/${e.slug}`}
                  className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-5 hover:border-slate-400"
                >
                  <span className="text-lg font-medium">{e.title}</span>
                  <span className="text-sm text-slate-600">
                    {formatDuration(locale, e.durationMinutes)}
                    {e.location ? ` · ${e.location}` : ""}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Container>
    </GuestI18n>
  );
}
