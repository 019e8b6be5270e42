import "server-only";
import type { z } from "zod";
import type { Db } from "@/db";
import { eventTypes, type UserRow } from "@/db/schema";
import { newId } from "@/lib/ids";
import type { CreateTeamEventTypeBody } from "@/lib/schemas/team";
import { hostsToStore, teamEventSlugTaken, type TeamEventType } from "./event-type-hosts";
import { requireOwner, writeTeam } from "./store";

/** A new team event type (owners only), hosted by the given active members or by all of them. */
export async function createTeamEventType(
  db: Db,
  user: UserRow,
  teamId: string,
  input: z.output<typeof CreateTeamEventTypeBody>,
): Promise<TeamEventType> {
  try {
    return await writeTeam(db, user, teamId, async (tx, membership, touch) => {
      requireOwner(membership);
      const { hostIds: given, ...fields } = input;
      const hostIds = await hostsToStore(tx, teamId, given);
      const [row] = await tx
        .insert(eventTypes)
        .values({ id: newId("evt"), teamId, ...fields, hostIds, slotIntervalMinutes: fields.slotIntervalMinutes ?? null })
        .returning();
      touch(hostIds);
      return { eventType: row!, team: membership.team };
    });
  } catch (error) {
    teamEventSlugTaken(error, input.slug);
  }
}
