import "server-only";
import { headers } from "next/headers";
import type { SlotsPreview } from "@/components/booking/slot-picker";
import { getDb } from "@/lib/store/database";
import { log } from "@/lib/log";
import { monthOf, weekStartOf } from "@/lib/time/month-grid";
import type { PublicOwner } from "@/lib/services/bookable/bookable";
import { firstOpenMonth } from "@/lib/services/bookable/first-open-month";

// The booking page's first paint: the first open month's calendar, found on the server in the
// host's zone. It writes no time: the server knows no zone but the host's, and the guest's own
// times come with the browser's zone (an inline script asks for them at once).

/** The browser's first language (Accept-Language), for the preview's clock and first weekday. */
async function requestLocale(): Promise<string | undefined> {
  const tag = (await headers()).get("accept-language")?.split(",")[0]?.split(";")[0]?.trim();
  try {
    return tag && tag !== "*" ? new Intl.Locale(tag).toString() : undefined;
  } catch {
    return undefined;
  }
}

/** The picker's first open month in `zone`: its calendar only, or nothing when it cannot be found. */
export async function slotsPreview(owner: PublicOwner, slug: string, zone: string, windowDays: number): Promise<SlotsPreview | undefined> {
  try {
    const open = await firstOpenMonth(await getDb(), { owner, slug, zone, windowDays, now: Date.now() });
    const locale = (await requestLocale()) ?? "en-US";
    const counts = new Map<string, number>();
    // displayStart is the slot's wall time in the zone asked for: its date is the day it lies on.
    for (const slot of open.slots) counts.set(slot.displayStart.slice(0, 10), (counts.get(slot.displayStart.slice(0, 10)) ?? 0) + 1);
    return { weekStart: weekStartOf(locale), today: open.today, lastDate: open.lastDate, month: open.month, counts: [...counts] };
  } catch (err) {
    log.warn({ err, owner, slug }, "booking page: no preview of the first open times");
    return undefined;
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
