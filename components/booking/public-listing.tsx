import Link from "next/link";
import type { ReactNode } from "react";
import { HostAvatar } from "@/components/booking/event-summary";
import { GuestI18n, LanguageFooter } from "@/components/booking/guest-i18n";
import { Container } from "@/components/ui/container";
import { formatDuration } from "@/lib/i18n/fill";
import type { GuestLanguage } from "@/lib/i18n/server";

// What a host's page (/{username}) and a team's (/team/{teamSlug}) show: who it is (avatar, or
// initials in a circle; name; bio), and the event types a guest can book, each a link to its
// booking page with its description. Rendered on the server only; every text is the host's own,
// so React escapes it and `whitespace-pre-line` keeps their line breaks without any HTML.

type Item = { id: string; href: string; title: string; durationMinutes: number; location: string; description: string };
type Owner = { name: string; avatarUrl: string | null; bio: string | null };

export function PublicListing({ owner, items, language, notice }: { owner: Owner; items: Item[]; language: GuestLanguage; notice?: ReactNode }) {
  const { locale, source, messages } = language;
  return (
    <GuestI18n locale={locale} source={source} messages={messages.page}>
      <Container lang={locale}>
        <div className="flex min-w-0 items-center gap-4">
          <HostAvatar name={owner.name} avatarUrl={owner.avatarUrl} size="size-14 sm:size-16 text-lg" />
          <h1 className="min-w-0 text-3xl font-semibold tracking-tight break-words">{owner.name}</h1>
        </div>
        {owner.bio && <p className="-mt-2 max-w-prose whitespace-pre-line break-words text-slate-700">{owner.bio}</p>}
        {notice}
        {items.length === 0 ? (
          <p className="text-slate-600">{messages.pages.nothingToBook}</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {items.map((e) => (
              <li key={e.id}>
                <Link href={e.href} className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-5 hover:border-slate-400">
                  <span className="text-lg font-medium break-words">{e.title}</span>
                  <span className="text-sm text-slate-600">
                    {formatDuration(locale, e.durationMinutes)}
                    {e.location ? ` · ${e.location}` : ""}
                  </span>
                  {e.description && <span className="line-clamp-3 text-sm whitespace-pre-line break-words text-slate-700">{e.description}</span>}
                </Link>
              </li>
            ))}
          </ul>
        )}
        <LanguageFooter />
      </Container>
    </GuestI18n>
  );
}
