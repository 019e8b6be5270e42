import "server-only";
import { headers } from "next/headers";
import type { SlotsPreview } from "@/components/booking/slot-picker";
import { getDb } from "@/lib/store/database";
import { firstLocaleOfAcceptLanguage } from "@/lib/i18n/locales";
import { log } from "@/lib/log";
import { monthOf, weekStartOf } from "@/lib/time/month-grid";
import type { PublicOwner } from "@/lib/services/bookable/bookable";
import { firstOpenMonth } from "@/lib/services/bookable/first-open-month";

// The booking page's first paint: the first open month's calendar, found on the server in the
// host's zone. It writes no time: the server knows no zone but the host's, and the guest's own
// times come with the browser's zone (an inline script asks for them at once).

/**
 * The picker's first open month in `zone`: its calendar only, or nothing when it cannot be found;
 * and until when it holds (the clock alone can change it then; a failure holds for no time).
 */
export async function slotsPreview(owner: PublicOwner, slug: string, zone: string, windowDays: number): Promise<{ preview?: SlotsPreview; validUntil: number }> {
  const now = Date.now();
  try {
    const open = await firstOpenMonth(await getDb(), { owner, slug, zone, windowDays, now });
    const locale = firstLocaleOfAcceptLanguage((await headers()).get("accept-language")) ?? "en-US";
    const counts = new Map<string, number>();
    // displayStart is the slot's wall time in the zone asked for: its date is the day it lies on.
    for (const slot of open.slots) counts.set(slot.displayStart.slice(0, 10), (counts.get(slot.displayStart.slice(0, 10)) ?? 0) + 1);
    return { preview: { weekStart: weekStartOf(locale), today: open.today, lastDate: open.lastDate, month: open.month, counts: [...counts] }, validUntil: open.validUntil };
  } catch (err) {
    log.warn({ err, owner, slug }, "booking page: no preview of the first open times");
    // A page without its preview is not kept: the next guest's render tries again.
    return { validUntil: 0 };
  }
}

/** How many months the inline script asks for at once: the guest's first is most likely the preview's (at most three). */
export function monthsToPrefetch(preview: SlotsPreview | undefined): number {
  return preview ? Math.min(3, monthsBetween(monthOf(preview.today), preview.month) + 1) : 1;
}

/** Whole months from `from` to `to` ("YYYY-MM"). */
function monthsBetween(from: string, to: string): number {
  const index = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7));
  return index(to) - index(from);
}
