import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { pgErrorCode } from "@/db/client";
import { eventTypes, type EventTypeRow, type UserRow } from "@/db/schema";
import { AppError, notFound, validationError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { CreateEventTypeBody, UpdateEventTypeBody } from "@/lib/schemas/event-type";
import { writeForHost } from "@/lib/services/host-time/writes";
import { assertOwnSchedule } from "@/lib/services/schedules/manage";

function slugTaken(error: unknown, slug: string | undefined): never {
  if (pgErrorCode(error) === "23505") {
    throw new AppError("conflict", `You already have an event type with the slug "${slug}"`, { field: "slug" });
  }
  // The schedule was deleted between the check and the write.
  if (pgErrorCode(error) === "23503") throw validationError([{ path: "scheduleId", message: "No schedule of yours has this id" }]);
  throw error;
}

export function listEventTypes(db: Db, host: UserRow): Promise<EventTypeRow[]> {
  return db.select().from(eventTypes).where(eq(eventTypes.userId, host.id)).orderBy(asc(eventTypes.createdAt), asc(eventTypes.id));
}

/** The host's event type, or 404: another host's id is indistinguishable from an unknown one. */
export async function getEventTypeForHostOrThrow(db: Db, host: UserRow, id: string): Promise<EventTypeRow> {
  const [row] = await db
    .select()
    .from(eventTypes)
    .where(and(eq(eventTypes.id, id), eq(eventTypes.userId, host.id)))
    .limit(1);
  if (!row) throw notFound("Event type");
  return row;
}

export async function createEventType(db: Db, host: UserRow, input: z.output<typeof CreateEventTypeBody>): Promise<EventTypeRow> {
  try {
    return await writeForHost(db, host.id, async (tx) => {
      await assertOwnSchedule(tx, host, input.scheduleId);
      const [row] = await tx
        .insert(eventTypes)
        .values({ id: newId("evt"), userId: host.id, ...input, slotIntervalMinutes: input.slotIntervalMinutes ?? null })
        .returning();
      return row!;
    });
  } catch (error) {
    slugTaken(error, input.slug);
  }
}

export async function updateEventType(
  db: Db,
  host: UserRow,
  id: string,
  input: z.output<typeof UpdateEventTypeBody>,
): Promise<EventTypeRow> {
  if (Object.keys(input).length === 0) return getEventTypeForHostOrThrow(db, host, id);
  try {
    return await writeForHost(db, host.id, async (tx) => {
      await assertOwnSchedule(tx, host, input.scheduleId);
      const [row] = await tx
        .update(eventTypes)
        .set({ ...input, updatedAt: sql`now()` })
        .where(and(eq(eventTypes.id, id), eq(eventTypes.userId, host.id)))
        .returning();
      if (!row) throw notFound("Event type");
      return row;
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    slugTaken(error, input.slug);
  }
}

/**
 * Hard delete when no booking refers to the event type, soft delete (isActive false) when one
 * does. It holds the host's booking lock, so a booking being made at the same moment either
 * commits first (the foreign key then refuses the hard delete, and the type is hidden instead)
 * or waits and finds the type gone (404). The hard delete is tried and the foreign key decides:
 * no count of bookings can go stale. Returns the row when soft-deleted, null when removed.
 */
export async function deleteEventType(db: Db, host: UserRow, id: string): Promise<EventTypeRow | null> {
  return writeForHost(
    db,
    host.id,
    async (tx) => {
      const mine = and(eq(eventTypes.id, id), eq(eventTypes.userId, host.id));
      try {
        // A savepoint keeps the transaction usable after the foreign-key error.
        const deleted = await tx.transaction((sp) => sp.delete(eventTypes).where(mine).returning({ id: eventTypes.id }));
        if (deleted.length === 0) throw notFound("Event type");
        return null;
      } catch (error) {
        // 23001 restrict_violation (ON DELETE RESTRICT), 23503 foreign_key_violation.
        const code = pgErrorCode(error);
        if (code !== "23001" && code !== "23503") throw error;
      }
      const [row] = await tx.update(eventTypes).set({ isActive: false, updatedAt: sql`now()` }).where(mine).returning();
      if (!row) throw notFound("Event type");
      return row;
    },
    { lockBookings: true },
  );
}
