import "server-only";
import type { z } from "zod";
import type { Db } from "@/db";
import type { SlotsQuery } from "@/lib/schemas/booking";
import { toSlotDtos } from "@/lib/slots";
import { computeTeamSlots } from "@/lib/slots/team";
import { getPublicTeamEventTypeOrThrow } from "@/lib/services/teams/public-pages";
import { getHostSchedulesCached } from "./cache";
import { engineEventType, engineHost } from "./load";

/**
 * The open slots of a public team event type for the guest's dates, in the guest's zone, as
 * serialised JSON `{timezone, slots}` (decisions §15): each host's starts from the one engine with
 * that host's own hours, zone, notice, window and busy time (personal and team bookings, calendars),
 * then their union for round robin, their intersection for collective. Which host is free for a
 * start stays inside the service: a guest sees times, not who is busy.
 */
export async function listTeamSlotsJson(db: Db, teamSlug: string, slug: string, query: z.output<typeof SlotsQuery>, now: number): Promise<string> {
  const { eventType, hosts } = await getPublicTeamEventTypeOrThrow(db, teamSlug, slug);
  const schedules = await getHostSchedulesCached(db, hosts);
  const range = { from: query.from, to: query.to, timeZone: query.timezone };
  const slots = computeTeamSlots(
    eventType.schedulingType ?? "collective",
    hosts.map((host, i) => ({
      hostId: host.id,
      input: { now, host: engineHost(host), eventType: engineEventType(eventType), ...schedules[i]!, range },
    })),
  );
  return JSON.stringify({ timezone: query.timezone, slots: toSlotDtos(slots, query.timezone) });
}
