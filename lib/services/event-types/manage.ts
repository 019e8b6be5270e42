import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "@/db";
import { pgErrorCode } from "@/db/client";
import { eventTypes, type EventTypeRow, type TeamMemberRow, type TeamRow } from "@/db/schema";
import { notFound, validationError } from "@/lib/errors";
import { getConfig } from "@/lib/config";
import { newId } from "@/lib/ids";
import type { CreateEventTypeBody, UpdateEventTypeBody } from "@/lib/schemas/event-type";
import type { CreateTeamEventTypeBody, UpdateTeamEventTypeBody } from "@/lib/schemas/team";
import { ownCalendarIds, withLiveConflictCalendars } from "@/lib/services/calendars/conflict-calendars";
import { assertOwnSchedule } from "@/lib/services/schedules/manage";
import { hostsToStore } from "@/lib/services/teams/hosts";
import { eventTypeWriteFailed, readScope, writeAsOwner, type EventTypeOwner, type OwnedEventType, type OwnerWriteScope } from "./owner";

// The event-type verbs, one set for every owner (owner.ts): a host's own event types and a
// team's are listed, read, created, changed and deleted by the same code.

type CreateInput = z.output<typeof CreateEventTypeBody> | z.output<typeof CreateTeamEventTypeBody>;
type UpdateInput = z.output<typeof UpdateEventTypeBody> | z.output<typeof UpdateTeamEventTypeBody>;

/** The owner's event types, inactive ones included, oldest first (a team's: for its active members). */
export async function listEventTypes(db: Db, owner: EventTypeOwner): Promise<{ team: TeamRow | null; eventTypes: EventTypeRow[] }> {
  const scope = await readScope(db, owner);
  const rows = await db.select().from(eventTypes).where(scope.owns).orderBy(asc(eventTypes.createdAt), asc(eventTypes.id));
  return { team: scope.team, eventTypes: await withLiveConflictCalendars(db, rows) };
}

/** One of the owner's event types with the asker's role, or 404: another owner's id is indistinguishable from an unknown one. */
export async function getEventType(db: Db, owner: EventTypeOwner, id: string): Promise<OwnedEventType & { role: TeamMemberRow["role"] }> {
  const scope = await readScope(db, owner);
  const [row] = await db
    .select()
    .from(eventTypes)
    .where(and(eq(eventTypes.id, id), scope.owns))
    .limit(1);
  if (!row) throw notFound("Event type");
  const [live] = await withLiveConflictCalendars(db, [row]);
  return { eventType: live!, team: scope.team, role: scope.role };
}

/**
 * What the input's references come to, checked under the write's lock: a personal event type's
 * schedule and calendars must be the host's own (the calendars deduplicated); a team's hosts must
 * be active members (every active member when a new one names none), and it chooses no calendars
 * (decisions §21: each host does, on their Calendars page). Undefined hostIds: unchanged.
 */
async function checkedReferences(tx: Tx, owner: EventTypeOwner, scope: OwnerWriteScope, input: CreateInput | UpdateInput, creating: boolean) {
  await assertOwnSchedule(tx, owner.user, input.scheduleId);
  let conflictCalendars: string[] | undefined;
  if (input.conflictCalendars) {
    if (scope.team !== null) {
      throw validationError([{ path: "conflictCalendars", message: "A team event type cannot choose calendars: each host chooses which of their calendars count on their Calendars page" }]);
    }
    conflictCalendars = await ownCalendarIds(tx, owner.user.id, input.conflictCalendars);
  }
  if (scope.team === null) return { conflictCalendars };
  const given = "hostIds" in input ? input.hostIds : undefined;
  return { hostIds: given || creating ? await hostsToStore(tx, scope.team.id, given) : undefined };
}

/**
 * Which event types may be seated or recurring (decisions §19): seats need every guest of a start
 * with the same host or hosts, so not round robin; a series keeps one host, so not collective
 * (its hosts' weeks would all have to be free together).
 */
function assertShape(eventType: Pick<EventTypeRow, "schedulingType" | "seats" | "recurrence">, price?: EventTypeRow["price"]): void {
  // A price needs the installation's Stripe account (decisions §20); taking one off never does.
  if (price && !getConfig().payments) {
    throw validationError([{ path: "price", message: "Payments are not set up on this service: its operator sets STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET first" }]);
  }
  if (eventType.seats && eventType.schedulingType === "round_robin") {
    throw validationError([{ path: "seats", message: "Round-robin event types cannot have seats: every guest of a start needs the same host" }]);
  }
  if (eventType.recurrence && eventType.schedulingType === "collective") {
    throw validationError([{ path: "recurrence", message: "Collective event types cannot recur: book a series with one host (personal or round robin)" }]);
  }
}

/** The input's columns as stored: the hosts are checked apart (checkedReferences). */
function withoutHosts<T extends CreateInput | UpdateInput>(input: T): Omit<T, "hostIds"> {
  const fields: T & { hostIds?: unknown } = { ...input };
  delete fields.hostIds;
  return fields;
}

/** A new event type of the owner (a team's: its active owners only). */
export async function createEventType(db: Db, owner: EventTypeOwner, input: CreateInput): Promise<OwnedEventType> {
  try {
    return await writeAsOwner(db, owner, async (tx, scope) => {
      const fields = withoutHosts(input);
      assertShape({ seats: fields.seats, recurrence: fields.recurrence, schedulingType: "schedulingType" in input ? input.schedulingType : null }, fields.price);
      const { hostIds, conflictCalendars } = await checkedReferences(tx, owner, scope, input, true);
      const [row] = await tx
        .insert(eventTypes)
        .values({
          id: newId("evt"),
          ...scope.columns,
          ...fields,
          ...(hostIds ? { hostIds } : {}),
          ...(conflictCalendars ? { conflictCalendars } : {}),
          slotIntervalMinutes: fields.slotIntervalMinutes ?? null,
        })
        .returning();
      scope.touch(row!.hostIds);
      return { eventType: row!, team: scope.team };
    });
  } catch (error) {
    eventTypeWriteFailed(error, owner, input.slug);
  }
}

/** Changes one of the owner's event types: any create field, isActive, and a team's hosts. */
export async function updateEventType(db: Db, owner: EventTypeOwner, id: string, input: UpdateInput): Promise<OwnedEventType> {
  try {
    return await writeAsOwner(db, owner, async (tx, scope) => {
      const ours = and(eq(eventTypes.id, id), scope.owns);
      const [before] = await tx.select().from(eventTypes).where(ours).limit(1);
      if (!before) throw notFound("Event type");
      if (Object.keys(input).length === 0) return { eventType: before, team: scope.team };
      const fields = withoutHosts(input);
      assertShape({ ...before, ...fields }, fields.price);
      const { hostIds, conflictCalendars } = await checkedReferences(tx, owner, scope, input, false);
      const [row] = await tx
        .update(eventTypes)
        .set({ ...fields, ...(hostIds ? { hostIds } : {}), ...(conflictCalendars ? { conflictCalendars } : {}), updatedAt: sql`now()` })
        .where(ours)
        .returning();
      // Whoever hosted it before and whoever hosts it now: both sets of slots changed.
      scope.touch([...before.hostIds, ...row!.hostIds]);
      return { eventType: row!, team: scope.team };
    });
  } catch (error) {
    eventTypeWriteFailed(error, owner, input.slug);
  }
}

/**
 * Hard delete when no booking refers to the event type, soft delete (isActive false) when one
 * does; the foreign key decides, so no count of bookings can go stale. A host's own is deleted
 * under their booking lock: a booking being made at the same moment either commits first (the
 * key then refuses the hard delete, and the type is hidden instead) or waits and finds the type
 * gone (404). Returns the type when soft-deleted, null when removed.
 */
export async function deleteEventType(db: Db, owner: EventTypeOwner, id: string): Promise<OwnedEventType | null> {
  return writeAsOwner(
    db,
    owner,
    async (tx, scope) => {
      const ours = and(eq(eventTypes.id, id), scope.owns);
      try {
        // A savepoint keeps the transaction usable after the foreign-key error.
        const deleted = await tx.transaction((sp) => sp.delete(eventTypes).where(ours).returning({ hostIds: eventTypes.hostIds }));
        if (deleted.length === 0) throw notFound("Event type");
        scope.touch(deleted[0]!.hostIds);
        return null;
      } catch (error) {
        // 23001 restrict_violation (ON DELETE RESTRICT), 23503 foreign_key_violation.
        const code = pgErrorCode(error);
        if (code !== "23001" && code !== "23503") throw error;
      }
      const [row] = await tx.update(eventTypes).set({ isActive: false, updatedAt: sql`now()` }).where(ours).returning();
      if (!row) throw notFound("Event type");
      scope.touch(row.hostIds);
      return { eventType: row, team: scope.team };
    },
    { lockBookings: true },
  );
}
