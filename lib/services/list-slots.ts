import type { z } from "zod";
import type { Db } from "@/db";
import type { SlotsQuery } from "@/lib/schemas/booking";
import { computeSlots, dayOfDate, toSlotDtos, type SlotDto } from "@/lib/slots";
import { getPublicEventTypeOrThrow, loadSlotData } from "./slot-input";

const DAY = 86_400_000;

/** The open slots of a public event type for the guest's dates, shown in the guest's zone. */
export async function listSlots(
  db: Db,
  username: string,
  slug: string,
  query: z.output<typeof SlotsQuery>,
  now: number,
): Promise<{ timezone: string; slots: SlotDto[] }> {
  const { host, eventType } = await getPublicEventTypeOrThrow(db, username, slug);
  // The guest's dates in UTC, widened by the largest offset (±14 h); the engine cuts exactly.
  const from = dayOfDate(query.from) * DAY - DAY;
  const to = (dayOfDate(query.to) + 2) * DAY;
  const data = await loadSlotData(db, host, eventType, from, to);
  const slots = computeSlots({ ...data, now, range: { from: query.from, to: query.to, timeZone: query.timezone } });
  return { timezone: query.timezone, slots: toSlotDtos(slots, query.timezone) };
}
