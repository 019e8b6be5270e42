import "server-only";
import type { Db } from "@/db";
import { addMonths, firstOfMonth, lastOfMonth, monthOf } from "@/lib/time/month-grid";
import { addDays, dateInZone } from "@/lib/time/format";
import type { SlotDto } from "@/lib/slots";
import type { PublicOwner } from "./bookable";
import { listPublicSlots } from "./slots";

// The slot picker's first search (components/booking/slot-picker.tsx), done on the server for the
// booking page's first paint: from today in `zone`, month by month up to the booking window, the
// first month with open times, and its slots. Through listPublicSlots, so it shares the slot
// list's cache with the API, for a host's event type or a team's alike.

/** The slots API answers at most 31 days per query: one query per month, as the picker asks. */
const MAX_MONTHS_AHEAD = 13;

export type OpenMonth = {
  /** Today in `zone`, and the last date the booking window may reach there. */
  today: string;
  lastDate: string;
  /** "YYYY-MM": the first month with open times, or this month when none has any. */
  month: string;
  slots: SlotDto[];
  /** The instant the answer could first differ for a later `now` (the earliest of the months read). */
  validUntil: number;
};

export async function firstOpenMonth(
  db: Db,
  args: { owner: PublicOwner; slug: string; zone: string; windowDays: number; now: number },
): Promise<OpenMonth> {
  const today = dateInZone(args.now, args.zone);
  // The engine counts the window in the host's zone; a day more covers a guest ahead of it.
  const lastDate = addDays(today, args.windowDays + 1);
  let validUntil = Infinity;
  for (let month = monthOf(today), i = 0; month <= monthOf(lastDate) && i < MAX_MONTHS_AHEAD; month = addMonths(month, 1), i++) {
    const from = firstOfMonth(month) < today ? today : firstOfMonth(month);
    const to = lastOfMonth(month) > lastDate ? lastDate : lastOfMonth(month);
    const answer = await listPublicSlots(db, args.owner, args.slug, { from, to, timezone: args.zone }, args.now);
    validUntil = Math.min(validUntil, answer.expires);
    const { slots } = JSON.parse(answer.value) as { slots: SlotDto[] };
    if (slots.length > 0) return { today, lastDate, month, slots, validUntil };
  }
  return { today, lastDate, month: monthOf(today), slots: [], validUntil };
}
