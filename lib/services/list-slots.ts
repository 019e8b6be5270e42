import type { z } from "zod";
import type { Db } from "@/db";
import type { SlotsQuery } from "@/lib/schemas/booking";
import { computeSlots, toSlotDtos, type SlotDto } from "@/lib/slots";
import { getHostScheduleCached, getPublicEventTypeCached } from "./schedule-cache";
import { engineEventType, engineHost } from "./slot-input";

/** The open slots of a public event type for the guest's dates, shown in the guest's zone. */
export async function listSlots(
  db: Db,
  username: string,
  slug: string,
  query: z.output<typeof SlotsQuery>,
  now: number,
): Promise<{ timezone: string; slots: SlotDto[] }> {
  const { host, eventType } = await getPublicEventTypeCached(db, username, slug);
  const schedule = await getHostScheduleCached(db, host);
  const slots = computeSlots({
    now,
    host: engineHost(host),
    eventType: engineEventType(eventType),
    ...schedule,
    range: { from: query.from, to: query.to, timeZone: query.timezone },
  });
  return { timezone: query.timezone, slots: toSlotDtos(slots, query.timezone) };
}
