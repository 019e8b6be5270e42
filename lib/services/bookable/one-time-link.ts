import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { eventTypes, teams, users, type EventTypeRow, type OneTimeLinkRow, type TeamRow, type UserRow } from "@/db/schema";
import { notFound } from "@/lib/errors";
import { findOneTimeLink, linkGone, type FoundLink } from "@/lib/services/event-types/one-time-links";
import { activeHostsOf } from "@/lib/services/teams/hosts";
import { bookableOf, type Bookable } from "./bookable";

// A one-time link's entry into the one read model (decisions §21): the link's event type, active
// or not, and its hosts, as a Bookable; its page, slots and booking then run the same code as the
// event type's own public paths.

/** An event type's hosts and team as a booking sees them: its owner, or its team's active hosts. */
export async function hostsOfEventType(db: Db | Tx, eventType: EventTypeRow): Promise<{ hosts: UserRow[]; team: TeamRow | null }> {
  if (eventType.teamId) {
    const [team] = await db.select().from(teams).where(eq(teams.id, eventType.teamId)).limit(1);
    if (!team) throw notFound("Event type");
    return { hosts: await activeHostsOf(db, eventType), team };
  }
  const [host] = await db.select().from(users).where(eq(users.id, eventType.userId!)).limit(1);
  if (!host) throw notFound("Event type");
  return { hosts: [host], team: null };
}

/** What a link's page shows whatever its state: the link, why it ended (if it did), its event type and hosts. */
export async function findLinkBookable(db: Db, token: string, now: number): Promise<(FoundLink & { bookable: Bookable }) | undefined> {
  const found = await findOneTimeLink(db, token, now);
  if (!found) return undefined;
  const { hosts, team } = await hostsOfEventType(db, found.eventType);
  return { ...found, bookable: bookableOf(found.eventType, hosts, team) };
}

/** The bookable behind a link that can still book: 404 for an unknown token, 410 gone for one used, expired or withdrawn. */
export async function getLinkBookableOrThrow(db: Db, token: string, now: number): Promise<{ link: OneTimeLinkRow; bookable: Bookable }> {
  const found = await findLinkBookable(db, token, now);
  if (!found) throw notFound("Link");
  if (found.end) throw linkGone(found.link, found.end);
  return { link: found.link, bookable: found.bookable };
}

/** Whether the event type's owner (its host, or its team) offers anything on their public page: where an ended link's page may send the guest. */
export async function ownerOffersAnything(db: Db, eventType: EventTypeRow): Promise<boolean> {
  const owns = eventType.teamId ? eq(eventTypes.teamId, eventType.teamId) : eq(eventTypes.userId, eventType.userId!);
  const [row] = await db
    .select({ id: eventTypes.id })
    .from(eventTypes)
    .where(and(owns, eq(eventTypes.isActive, true)))
    .limit(1);
  return row !== undefined;
}
