import "server-only";
import type { Db, Tx } from "@/db";
import type { EventTypeRow, TeamRow, UserRow } from "@/db/schema";
import type { SchedulingType } from "@/lib/slots/team";
import { getPublicEventTypeOrThrow } from "@/lib/services/bookable/public";
import { getPublicTeamEventTypeOrThrow } from "@/lib/services/bookable/public";
import { cachedLookup } from "@/lib/services/host-time/cache";
import { scheduleIdFor, type ScheduleRequest } from "@/lib/services/host-time/load";

// One model (issue 38): a personal event type is a team of one. Whatever is asked of an event
// type's time (its slots, why a start is or is not offered, what the cache keeps of it) is asked
// of a Bookable, resolved once from either public path or from the host's side; the two URL
// shapes are entries into the same code.

/** A host of a bookable and the schedule its hours come from (null: the host's default): what the loader reads. */
export type BookableHost = ScheduleRequest;

/** An event type, the hosts whose time it offers, and its team (null: a personal event type, one host). */
export type Bookable = { eventType: EventTypeRow; hosts: BookableHost[]; team: TeamRow | null };

/** A team's bookable: one found by a team's path always has its team. */
export type TeamBookable = Bookable & { team: TeamRow };

/** Whose event type a public path names: /{username}/{slug}, or /team/{teamSlug}/{slug}. */
export type PublicOwner = { username: string } | { teamSlug: string };

/** The bookable of an event type and its hosts (scheduleIdFor: a personal type's own schedule, else each host's default). */
export function bookableOf(eventType: EventTypeRow, hosts: UserRow[], team: TeamRow | null): Bookable {
  return { eventType, team, hosts: hosts.map((host) => ({ host, scheduleId: scheduleIdFor(host, eventType) })) };
}

/** The bookable behind a public path: an active event type and, for a team's, its active hosts (404 otherwise). */
export async function getPublicBookableOrThrow(db: Db | Tx, owner: PublicOwner, slug: string): Promise<Bookable> {
  if ("teamSlug" in owner) {
    const { team, eventType, hosts } = await getPublicTeamEventTypeOrThrow(db, owner.teamSlug, slug);
    return bookableOf(eventType, hosts, team);
  }
  const { host, eventType } = await getPublicEventTypeOrThrow(db, owner.username, slug);
  return bookableOf(eventType, [host], null);
}

/** The host of a personal bookable (its only one), whose name and zone its page shows. */
export function personalHost(bookable: Bookable): UserRow {
  return bookable.hosts[0]!.host;
}

/** The cache keys whose change retires what was made of the bookable: its team's (if any) and each host's. */
export function dependenciesOf(bookable: Bookable): string[] {
  const hostIds = bookable.hosts.map((h) => h.host.id);
  return bookable.team ? [bookable.team.id, ...hostIds] : hostIds;
}

/** How the hosts' starts combine (decisions §15); one host's are the same either way. */
export function schedulingTypeOf(bookable: Bookable): SchedulingType {
  return bookable.eventType.schedulingType ?? "collective";
}

/**
 * How far ahead guests may book, for the picker (decisions §16): the event type's own window, else
 * as far as its furthest host's (a host's window is at least a day, so one host's is their own).
 */
export function windowDaysOf(bookable: Bookable): number {
  return bookable.eventType.maxAdvanceDays ?? Math.max(1, ...bookable.hosts.map((h) => h.host.maxAdvanceDays));
}

/** The bookable behind a public path (404 otherwise; misses are not kept), kept until its team or a host changes. */
export function getPublicBookableCached(db: Db, owner: { teamSlug: string }, slug: string): Promise<TeamBookable>;
export function getPublicBookableCached(db: Db, owner: PublicOwner, slug: string): Promise<Bookable>;
export function getPublicBookableCached(db: Db, owner: PublicOwner, slug: string): Promise<Bookable> {
  // A username and a team's slug may be the same word: the path's shape is part of the key.
  const key = "teamSlug" in owner ? `team:${owner.teamSlug}/${slug}` : `user:${owner.username}/${slug}`;
  return cachedLookup(key, "event", () => getPublicBookableOrThrow(db, owner, slug), dependenciesOf);
}
