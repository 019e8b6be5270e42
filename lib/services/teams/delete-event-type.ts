import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { pgErrorCode } from "@/db/client";
import { eventTypes, type UserRow } from "@/db/schema";
import { notFound } from "@/lib/errors";
import type { TeamEventType } from "./event-type-hosts";
import { requireOwner, writeTeam } from "./store";

/**
 * As for a personal event type: hard delete when no booking refers to it, soft delete (isActive
 * false) when one does; the foreign key decides. Owners only. Returns the type when soft-deleted,
 * null when removed.
 */
export async function deleteTeamEventType(db: Db, user: UserRow, teamId: string, eventTypeId: string): Promise<TeamEventType | null> {
  return writeTeam(db, user, teamId, async (tx, membership, touch) => {
    requireOwner(membership);
    const ours = and(eq(eventTypes.id, eventTypeId), eq(eventTypes.teamId, teamId));
    try {
      // A savepoint keeps the transaction usable after the foreign-key error.
      const deleted = await tx.transaction((sp) => sp.delete(eventTypes).where(ours).returning({ hostIds: eventTypes.hostIds }));
      if (deleted.length === 0) throw notFound("Event type");
      touch(deleted[0]!.hostIds);
      return null;
    } catch (error) {
      // 23001 restrict_violation (ON DELETE RESTRICT), 23503 foreign_key_violation.
      const code = pgErrorCode(error);
      if (code !== "23001" && code !== "23503") throw error;
    }
    const [row] = await tx.update(eventTypes).set({ isActive: false, updatedAt: sql`now()` }).where(ours).returning();
    if (!row) throw notFound("Event type");
    touch(row.hostIds);
    return { eventType: row, team: membership.team };
  });
}
