import "server-only";
import type { z } from "zod";
import type { Db } from "@/db";
import type { SlotsQuery } from "@/lib/schemas/booking";
import { toSlotDtos } from "@/lib/slots";
import { computeTeamSlotsUntil } from "@/lib/slots/team";
import { dependenciesOf, getPublicBookableCached, schedulingTypeOf, type Bookable, type PublicOwner } from "./bookable";
import { cachedSlotResponse, cacheEpoch, getHostSchedulesCached, rememberSlotResponse, type Kept } from "@/lib/services/host-time/cache";
import { engineInputFor } from "@/lib/services/host-time/load";

type Query = z.output<typeof SlotsQuery>;

/**
 * The open slots of the event type behind a public path (a host's or a team's) for the guest's
 * dates, shown in the guest's zone, as serialised JSON `{timezone, slots}`: both public slot
 * routes and the booking page's first month come through here.
 */
export async function listPublicSlotsJson(db: Db, owner: PublicOwner, slug: string, query: Query, now: number): Promise<string> {
  return (await listPublicSlots(db, owner, slug, query, now)).value;
}

/** listPublicSlotsJson's answer and the instant it could first differ for a later `now` (the booking page is kept no longer). */
export async function listPublicSlots(db: Db, owner: PublicOwner, slug: string, query: Query, now: number): Promise<Kept<string>> {
  return listSlotsOf(db, () => getPublicBookableCached(db, owner, slug), query, now);
}

/**
 * The same for a bookable found by `find` (a public path's, or a one-time link's: decisions §21).
 * The answer is kept by event type, whichever entry asked: the event type's slots are the same.
 */
export async function listSlotsOf(db: Db, find: () => Promise<Bookable>, query: Query, now: number): Promise<Kept<string>> {
  // Read before the lookup: an answer made from a bookable that changed meanwhile is not kept.
  const epoch = cacheEpoch();
  const bookable = await find();
  const key = `${bookable.eventType.id}|${query.from}|${query.to}|${query.timezone}`;
  // The same question asked again while the answer cannot have changed (same data, `now` before
  // the first slot falls under the notice or a host's day turns) is answered from the kept string.
  return cachedSlotResponse(key, now) ?? (await bookableSlotsJson(db, bookable, query, now, { key, epoch }));
}

/**
 * A bookable's slots (decisions §15): each host's starts from the one engine with that host's own
 * hours (the schedule the bookable names), zone, busy time and limit counts, and the event type's
 * notice and window (else the host's); their union for round robin, their intersection for
 * collective; one host's as they are. Which host is free for a start stays inside the service:
 * a guest sees times, not who is busy. Kept under `key` until the team or any of its hosts
 * changes, or the answer could change with the clock.
 */
async function bookableSlotsJson(db: Db, bookable: Bookable, query: Query, now: number, kept: { key: string; epoch: number }): Promise<Kept<string>> {
  const { eventType, hosts } = bookable;
  const schedules = await getHostSchedulesCached(db, hosts);
  const range = { from: query.from, to: query.to, timeZone: query.timezone };
  const { slots, validUntil } = computeTeamSlotsUntil(
    schedulingTypeOf(bookable),
    hosts.map(({ host }, i) => ({ hostId: host.id, input: { ...engineInputFor(host, eventType, schedules[i]!, now), range } })),
  );
  const body = JSON.stringify({ timezone: query.timezone, slots: toSlotDtos(slots, query.timezone, eventType.seats?.showRemaining ?? false) });
  rememberSlotResponse(kept.key, dependenciesOf(bookable), kept.epoch, body, now, validUntil);
  return { value: body, expires: validUntil };
}
