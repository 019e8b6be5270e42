import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { eventTypes, type UserRow } from "@/db/schema";
import { notFound } from "@/lib/errors";
import type { UpdateTeamEventTypeBody } from "@/lib/schemas/team";
import { hostsToStore, teamEventSlugTaken, type TeamEventType } from "./event-type-hosts";
import { requireOwner, writeTeam } from "./store";

/** Changes a team event type (owners only): any create field, isActive, and its hosts. */
export async function updateTeamEventType(
  db: Db,
  user: UserRow,
  teamId: string,
  eventTypeId: string,
  input: z.output<typeof UpdateTeamEventTypeBody>,
): Promise<TeamEventType> {
  try {
    return await writeTeam(db, user, teamId, async (tx, membership, touch) => {
      requireOwner(membership);
      const ours = and(eq(eventTypes.id, eventTypeId), eq(eventTypes.teamId, teamId));
      const [before] = await tx.select().from(eventTypes).where(ours).limit(1);
      if (!before) throw notFound("Event type");
      if (Object.keys(input).length === 0) return { eventType: before, team: membership.team };
      const { hostIds: given, ...fields } = input;
      const hostIds = given ? await hostsToStore(tx, teamId, given) : undefined;
      const [row] = await tx
        .update(eventTypes)
        .set({ ...fields, ...(hostIds ? { hostIds } : {}), updatedAt: sql`now()` })
        .where(ours)
        .returning();
      // Whoever hosted it before and whoever hosts it now: both sets of slots changed.
      touch([...before.hostIds, ...row!.hostIds]);
      return { eventType: row!, team: membership.team };
    });
  } catch (error) {
    teamEventSlugTaken(error, input.slug);
  }
}
