import "server-only";
import type { z } from "zod";
import type { Db } from "@/db";
import type { SlotsQuery } from "@/lib/schemas/booking";
import { computeSlots, slotsValidUntil, toSlotDtos } from "@/lib/slots";
import { cachedSlotResponse, cacheEpoch, getHostScheduleCached, getPublicEventTypeCached, rememberSlotResponse } from "./cache";
import { engineInputFor, scheduleIdFor } from "./load";

/**
 * The open slots of a public event type for the guest's dates, shown in the guest's zone, as
 * serialised JSON `{timezone, slots}`. The same question asked again while the answer cannot
 * have changed (same data, `now` before the first slot falls under the notice or the host's
 * day turns) is answered from the kept string.
 */
export async function listSlotsJson(db: Db, username: string, slug: string, query: z.output<typeof SlotsQuery>, now: number): Promise<string> {
  const epoch = cacheEpoch();
  const { host, eventType } = await getPublicEventTypeCached(db, username, slug);
  const key = `${eventType.id}|${query.from}|${query.to}|${query.timezone}`;
  const kept = cachedSlotResponse(key, now);
  if (kept) return kept;

  const schedule = await getHostScheduleCached(db, host, scheduleIdFor(host, eventType));
  const input = { ...engineInputFor(host, eventType, schedule, now), range: { from: query.from, to: query.to, timeZone: query.timezone } };
  const slots = computeSlots(input);
  const body = JSON.stringify({ timezone: query.timezone, slots: toSlotDtos(slots, query.timezone) });
  rememberSlotResponse(key, [host.id], epoch, body, now, slotsValidUntil(input, slots));
  return body;
}
