import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "@/db";
import { eventTypes, oneTimeLinks, type EventTypeRow, type OneTimeLinkRow } from "@/db/schema";
import { AppError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { oneTimeLinkUrl } from "@/lib/links";
import type { CreateOneTimeLinkBody } from "@/lib/schemas/one-time-link";
import { readScope, type EventTypeOwner, type OwnerScope } from "./owner";

// One-time links (decisions §21): a secret address that books its event type once, also while
// the event type is switched off for the public. The token (32 random bytes, base64url) is in the
// creation's answer only; the table keeps its SHA-256, as API keys do. A link used, expired or
// withdrawn stays a row, so its page and API can say which (410 gone) rather than "not found".
// Who may make, list and withdraw them is who may read or write the event type (owner.ts): the
// host for their own; a team's active members read, its active owners write.

const DAY_MS = 86_400_000;
export const DEFAULT_LINK_DAYS = 7;

export const hashLinkToken = (token: string) => createHash("sha256").update(token).digest("base64url");

/** Why a link no longer books: used, past its expiry, or withdrawn by its host (deleted). */
export type LinkEnd = "used" | "expired" | "withdrawn";

/** A link found by its token, with its event type; `end` when it can no longer book. */
export type FoundLink = { link: OneTimeLinkRow; eventType: EventTypeRow; end: LinkEnd | null };

/** The owner's event type a link verb is about (404 otherwise); writes are for a team's owners. */
async function eventTypeInScope(db: Db | Tx, owner: EventTypeOwner, eventTypeId: string, write: boolean): Promise<{ eventType: EventTypeRow; scope: OwnerScope }> {
  const scope = await readScope(db, owner);
  if (write && scope.team !== null && scope.role !== "owner") throw new AppError("forbidden", "Only an owner of this team can do this");
  const [eventType] = await db
    .select()
    .from(eventTypes)
    .where(and(eq(eventTypes.id, eventTypeId), scope.owns))
    .limit(1);
  if (!eventType) throw notFound("Event type");
  return { eventType, scope };
}

/** POST …/one-time-links: a new link, its address (with the token) in this answer only. */
export async function createOneTimeLink(
  db: Db | Tx,
  owner: EventTypeOwner,
  eventTypeId: string,
  input: z.output<typeof CreateOneTimeLinkBody>,
  now = Date.now(),
): Promise<{ row: OneTimeLinkRow; url: string }> {
  await eventTypeInScope(db, owner, eventTypeId, true);
  const token = randomBytes(32).toString("base64url");
  const [row] = await db
    .insert(oneTimeLinks)
    .values({
      id: newId("otl"),
      eventTypeId,
      tokenHash: hashLinkToken(token),
      expiresAt: new Date(now + (input.expiresInDays ?? DEFAULT_LINK_DAYS) * DAY_MS),
      createdAt: new Date(now),
    })
    .returning();
  return { row: row!, url: oneTimeLinkUrl(token) };
}

/** GET …/one-time-links: the links that can still book (not used, withdrawn or expired), newest first. */
export async function listOneTimeLinks(db: Db | Tx, owner: EventTypeOwner, eventTypeId: string, now = Date.now()): Promise<OneTimeLinkRow[]> {
  await eventTypeInScope(db, owner, eventTypeId, false);
  return db
    .select()
    .from(oneTimeLinks)
    .where(and(eq(oneTimeLinks.eventTypeId, eventTypeId), isNull(oneTimeLinks.usedAt), isNull(oneTimeLinks.deletedAt), gt(oneTimeLinks.expiresAt, new Date(now))))
    .orderBy(desc(oneTimeLinks.createdAt), desc(oneTimeLinks.id));
}

/** DELETE …/one-time-links/{linkId}: the link is withdrawn (its page says so); a used or withdrawn one, or another owner's, is 404. */
export async function deleteOneTimeLink(db: Db | Tx, owner: EventTypeOwner, eventTypeId: string, linkId: string): Promise<void> {
  await eventTypeInScope(db, owner, eventTypeId, true);
  const withdrawn = await db
    .update(oneTimeLinks)
    .set({ deletedAt: sql`now()` })
    .where(and(eq(oneTimeLinks.id, linkId), eq(oneTimeLinks.eventTypeId, eventTypeId), isNull(oneTimeLinks.usedAt), isNull(oneTimeLinks.deletedAt)))
    .returning({ id: oneTimeLinks.id });
  if (withdrawn.length === 0) throw notFound("One-time link");
}

/** Why a link can no longer book at `now`, or null while it can. */
export function linkEndOf(link: Pick<OneTimeLinkRow, "usedAt" | "deletedAt" | "expiresAt">, now: number): LinkEnd | null {
  if (link.usedAt) return "used";
  if (link.deletedAt) return "withdrawn";
  if (link.expiresAt.getTime() <= now) return "expired";
  return null;
}

/** The link behind a token and its event type (active or not), or undefined for a token never made. */
export async function findOneTimeLink(db: Db | Tx, token: string, now: number): Promise<FoundLink | undefined> {
  const [row] = await db
    .select({ link: oneTimeLinks, eventType: eventTypes })
    .from(oneTimeLinks)
    .innerJoin(eventTypes, eq(eventTypes.id, oneTimeLinks.eventTypeId))
    .where(eq(oneTimeLinks.tokenHash, hashLinkToken(token)))
    .limit(1);
  return row && { ...row, end: linkEndOf(row.link, now) };
}

/** "March 15, 2027": the day a link expired, said in words (the API's messages are English). */
function dayInWords(at: Date): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(at);
}

/** The 410 for a link that can no longer book, in plain words saying which. */
export function linkGone(link: OneTimeLinkRow, end: LinkEnd): AppError {
  const message = {
    used: "This link has already been used to book",
    expired: `This link expired on ${dayInWords(link.expiresAt)}`,
    withdrawn: "This link was withdrawn by the host",
  }[end];
  return new AppError("gone", message, { reason: end });
}

/** The link behind a token while it can still book: 404 for an unknown token, 410 for one used, expired or withdrawn. */
export async function openOneTimeLinkOrThrow(db: Db | Tx, token: string, now: number): Promise<FoundLink> {
  const found = await findOneTimeLink(db, token, now);
  if (!found) throw notFound("Link");
  if (found.end) throw linkGone(found.link, found.end);
  return found;
}

/**
 * Takes the link for a booking, inside the booking's transaction and before its slot is checked:
 * of two guests racing on one link, the second waits on the row and finds it used (410), whatever
 * time either asked for. No row: the link was used, withdrawn or expired meanwhile; the booking's
 * transaction rolls back with the 410.
 */
export async function claimOneTimeLink(tx: Tx, linkId: string): Promise<void> {
  const [claimed] = await tx
    .update(oneTimeLinks)
    .set({ usedAt: sql`now()` })
    .where(and(eq(oneTimeLinks.id, linkId), isNull(oneTimeLinks.usedAt), isNull(oneTimeLinks.deletedAt), gt(oneTimeLinks.expiresAt, sql`now()`)))
    .returning({ id: oneTimeLinks.id });
  if (claimed) return;
  const [link] = await tx.select().from(oneTimeLinks).where(eq(oneTimeLinks.id, linkId)).limit(1);
  if (!link) throw notFound("Link");
  // A link whose expiry passed between the first read and the database's clock is expired.
  throw linkGone(link, linkEndOf(link, Number.POSITIVE_INFINITY) ?? "expired");
}

/** Records the booking a claimed link made, in the same transaction (the row exists by now). */
export async function recordLinkBooking(tx: Tx, linkId: string, bookingId: string): Promise<void> {
  await tx.update(oneTimeLinks).set({ bookingId }).where(eq(oneTimeLinks.id, linkId));
}
