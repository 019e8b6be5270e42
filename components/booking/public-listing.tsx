import Link from "next/link";
import { GuestI18n, LanguageSelect } from "@/components/booking/guest-i18n";
import { Container } from "@/components/ui/container";
import { formatDuration } from "@/lib/i18n/fill";
import type { GuestLanguage } from "@/lib/i18n/server";

// What a host's page (/{username}) and a team's (/team/{teamSlug}) show: a name, and the event
// types a guest can book, each a link to its booking page. Rendered on the server only.

type Item = { id: string; href: string; title: string; durationMinutes: number; location: string };

export function PublicListing({ name, items, language }: { name: string; items: Item[]; language: GuestLanguage }) {
  const { locale, source, messages } = language;
  return (
    <GuestI18n locale={locale} source={source} messages={messages.page}>
      <Container lang={locale}>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h1 className="text-3xl font-semibold tracking-tight break-words">{name}</h1>
          <LanguageSelect />
        </div>
        {items.length === 0 ? (
          <p className="text-slate-600">{messages.pages.nothingToBook}</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {items.map((e) => (
              <li key={e.id}>
                <Link href={e.href} className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-5 hover:border-slate-400">
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
