import "server-only";
import type { z } from "zod";
import type { Db } from "@/db";
import { pgConstraint, pgErrorCode } from "@/db/client";
import { teamMembers, teams, type UserRow } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { CreateTeamBody } from "@/lib/schemas/team";
import { assertTeamRoom } from "./limits";
import { withMembers, type Team } from "./store";

/** Team slugs are unique: the unique index settles two teams taking one slug at once. */
export function teamSlugTaken(error: unknown): never {
  if (pgErrorCode(error) === "23505" && pgConstraint(error) === "teams_slug_key") {
    throw new AppError("conflict", "This team slug is already taken", { field: "slug" });
  }
  throw error;
}

/** A new team, with the caller as its active owner (at most MAX_OWNED_TEAMS owned: 409 past it). */
export async function createTeam(db: Db, user: UserRow, input: z.output<typeof CreateTeamBody>): Promise<Team> {
  try {
    return await db.transaction(async (tx) => {
      await assertTeamRoom(tx, user.id);
      const [team] = await tx.insert(teams).values({ id: newId("team"), slug: input.slug, name: input.name }).returning();
      await tx.insert(teamMembers).values({ teamId: team!.id, userId: user.id, role: "owner", status: "active", acceptedAt: new Date() });
      return withMembers(tx, team!);
    });
  } catch (error) {
    teamSlugTaken(error);
  }
}
