import "server-only";
import type { Db } from "@/db";
import type { UserRow } from "@/db/schema";
import { memberOrNotFound, withMembers, type Team } from "./store";

/** The team, for any of its members (an invitee too: they see what they are asked to join). */
export async function getTeam(db: Db, user: UserRow, teamId: string): Promise<Team> {
  const { team } = await memberOrNotFound(db, user, teamId);
  return withMembers(db, team);
}
