import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { pgErrorCode } from "@/db/client";
import { eventTypes, teams, type UserRow } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { requireOwner, writeTeam } from "./store";

/**
 * Removes the team with its members and event types. A team whose event types have bookings is
 * kept (409): those bookings are each host's history, and the event type they point at must stay.
 * The foreign key decides (bookings → event types, ON DELETE RESTRICT): no count can go stale.
 */
export async function deleteTeam(db: Db, user: UserRow, teamId: string): Promise<void> {
  await writeTeam(db, user, teamId, async (tx, membership, touch) => {
    requireOwner(membership);
    const types = await tx.select({ hostIds: eventTypes.hostIds }).from(eventTypes).where(eq(eventTypes.teamId, teamId));
    try {
      // A savepoint keeps the transaction usable after the foreign-key error.
      await tx.transaction((sp) => sp.delete(teams).where(eq(teams.id, teamId)));
    } catch (error) {
      // 23001 restrict_violation (ON DELETE RESTRICT), 23503 foreign_key_violation.
      const code = pgErrorCode(error);
      if (code !== "23001" && code !== "23503") throw error;
      throw new AppError(
        "conflict",
        "This team's event types have bookings, so the team cannot be deleted. Turn its event types off instead; past bookings stay in each host's history.",
      );
    }
    touch(types.flatMap((t) => t.hostIds));
  });
}
