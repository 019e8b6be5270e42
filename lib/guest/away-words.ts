import "server-only";
import { fill } from "@/lib/i18n/fill";
import { INTL_TAG } from "@/lib/i18n/locales";
import type { GuestLanguage } from "@/lib/i18n/server";
import type { AwayNotice } from "@/lib/services/time-off/away";
import { formatCalendarDate } from "@/lib/time/month-grid";

export type AwayNoticeWords = { headline: string; note: string | null; colleague: { label: string; href: string } | null };

/** A host's time off in the guest's words: "Away until Monday, 7 December" (the last day away), the note, the colleague's link. */
export function awayWords(notice: AwayNotice, { locale, messages }: Pick<GuestLanguage, "locale" | "messages">): AwayNoticeWords {
  const day = (date: string) => formatCalendarDate(date, { locale: INTL_TAG[locale] });
  const headline = notice.awayNow
    ? fill(messages.pages.awayUntil, { date: day(notice.endDate) })
    : fill(messages.pages.awayFromUntil, { start: day(notice.startDate), end: day(notice.endDate) });
  return {
    headline,
    note: notice.note,
    colleague: notice.colleague ? { label: fill(messages.pages.bookInstead, { name: notice.colleague.name }), href: notice.colleague.href } : null,
  };
}
