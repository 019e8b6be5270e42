import "server-only";
import type { z } from "zod";
import type { Db } from "@/db";
import type { SlotsQuery } from "@/lib/schemas/booking";
import { toSlotDtos } from "@/lib/slots";
import { computeTeamSlotsUntil } from "@/lib/slots/team";
import { cachedSlotResponse, cacheEpoch, getHostSchedulesCached, getPublicTeamEventTypeCached, rememberSlotResponse } from "./cache";
import { engineInputFor } from "./load";

/**
 * The open slots of a public team event type for the guest's dates, in the guest's zone, as
 * serialised JSON `{timezone, slots}` (decisions §15): each host's starts from the one engine with
 * that host's own hours (their default schedule), zone, busy time and limit counts, and the event type's notice and window (else the host's) (personal and team bookings, calendars),
 * then their union for round robin, their intersection for collective. Which host is free for a
 * start stays inside the service: a guest sees times, not who is busy. Cached like a host's list,
 * until any of its hosts or the team changes (or the answer could change with the clock).
 */
export async function listTeamSlotsJson(db: Db, teamSlug: string, slug: string, query: z.output<typeof SlotsQuery>, now: number): Promise<string> {
  const epoch = cacheEpoch();
  const { team, eventType, hosts } = await getPublicTeamEventTypeCached(db, teamSlug, slug);
  const key = `${eventType.id}|${query.from}|${query.to}|${query.timezone}`;
  const kept = cachedSlotResponse(key, now);
  if (kept) return kept;

  const schedules = await getHostSchedulesCached(db, hosts);
  const range = { from: query.from, to: query.to, timeZone: query.timezone };
  const { slots, validUntil } = computeTeamSlotsUntil(
    eventType.schedulingType ?? "collective",
    hosts.map((host, i) => ({
      hostId: host.id,
      input: { ...engineInputFor(host, eventType, schedules[i]!, now), range },
    })),
  );
  const body = JSON.stringify({ timezone: query.timezone, slots: toSlotDtos(slots, query.timezone) });
  rememberSlotResponse(key, [team.id, ...hosts.map((h) => h.id)], epoch, body, now, validUntil);
  return body;
}
