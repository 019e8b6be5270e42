import "server-only";
import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { teams, type UserRow } from "@/db/schema";
import type { UpdateTeamBody } from "@/lib/schemas/team";
import { teamSlugTaken } from "./create";
import { requireOwner, withMembers, writeTeam, type Team } from "./store";

/** Renames the team or moves its pages to a new slug (the old /team/{slug} answers 404 from then on). Owners only. */
export async function updateTeam(db: Db, user: UserRow, teamId: string, input: z.output<typeof UpdateTeamBody>): Promise<Team> {
  try {
    return await writeTeam(db, user, teamId, async (tx, membership) => {
      requireOwner(membership);
      if (Object.keys(input).length === 0) return withMembers(tx, membership.team);
      const [team] = await tx
        .update(teams)
        .set({ ...input, updatedAt: sql`now()` })
        .where(eq(teams.id, teamId))
        .returning();
      return withMembers(tx, team!);
    });
  } catch (error) {
    teamSlugTaken(error);
  }
}
