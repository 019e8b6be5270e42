import type { ReactNode } from "react";
import { ClockIcon, MapPinIcon } from "@/components/ui/icons";
import { formatDuration } from "@/lib/i18n/fill";
import type { Locale } from "@/lib/i18n/locales";

// The booking page's left column (above the calendar on a phone): who the guest meets, what,
// how long, for how much and where. Rendered on the server only: it costs the page no JavaScript.

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join("");
}

export function HostAvatar({ name, avatarUrl, size = "size-14" }: { name: string; avatarUrl: string | null; size?: string }) {
  return avatarUrl ? (
    // A plain img: avatars live on any https host, which the image optimizer would have to list.
    // eslint-disable-next-line @next/next/no-img-element
    <img src={avatarUrl} alt="" width={56} height={56} referrerPolicy="no-referrer" className={`${size} shrink-0 rounded-full bg-slate-100 object-cover`} />
  ) : (
    <span aria-hidden="true" className={`${size} flex shrink-0 items-center justify-center rounded-full bg-blue-100 font-semibold text-blue-800`}>
      {initials(name)}
    </span>
  );
}

export function SummaryLine({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <p className="flex items-start gap-2 text-slate-700">
      <span className="mt-0.5 text-slate-400">{icon}</span>
      <span className="min-w-0 break-words">{children}</span>
    </p>
  );
}

type Props = {
  host: { name: string; avatarUrl: string | null };
  /** Who the guest meets, when the name above is a team's ("You meet Ann, Ben, or Cy, whoever is free"). */
  with?: string;
  /** `price`: a paid event type's, in the guest's words ("€49.90", "€49.90 per session"). */
  event: { title: string; durationMinutes: number; location: string; description: string; price?: string };
  /** Inside an iframe: less room, so less padding and a smaller avatar. */
  compact?: boolean;
  /** The guest's language: the duration's words ("30 Minuten"). */
  locale?: Locale;
};

export function EventSummary({ host, with: meet, event, compact = false, locale = "en" }: Props) {
  return (
    // On a phone it is above the calendar: kept short (a smaller avatar, tighter lines), so the month starts on the first screen.
    <header className={`flex flex-col gap-2 sm:gap-3 border-b border-slate-200 lg:border-r lg:border-b-0 ${compact ? "p-3 sm:p-4" : "p-4 sm:p-6"}`}>
      <div className="flex items-center gap-3">
        <HostAvatar name={host.name} avatarUrl={host.avatarUrl} size={compact ? "size-10" : "size-10 sm:size-14"} />
        <p className="font-medium text-slate-600">{host.name}</p>
      </div>
      <h1 className={`${compact ? "text-xl" : "text-2xl"} font-semibold tracking-tight break-words text-slate-900`}>{event.title}</h1>
      <div className="flex flex-col gap-1.5">
        <SummaryLine icon={<ClockIcon />}>
          {formatDuration(locale, event.durationMinutes)}
          {event.price && (
            <>
              {" · "}
              <span data-testid="price" className="font-medium whitespace-nowrap text-slate-900">
                {event.price}
              </span>
            </>
          )}
        </SummaryLine>
        {event.location && <SummaryLine icon={<MapPinIcon />}>{event.location}</SummaryLine>}
      </div>
      {meet && <p className="text-sm break-words text-slate-600">{meet}</p>}
      {event.description && <p className="text-sm whitespace-pre-line break-words text-slate-600">{event.description}</p>}
    </header>
  );
}
