import "server-only";
import type { Tx } from "@/db";
import { pgConstraint, pgErrorCode } from "@/db/client";
import type { EventTypeRow, TeamRow } from "@/db/schema";
import { AppError, validationError } from "@/lib/errors";
import { activeMemberIds } from "./store";

/** A team event type and the team it belongs to (its booking page is under the team's slug). */
export type TeamEventType = { eventType: EventTypeRow; team: TeamRow };

/**
 * The hosts to store: the given userIds when each is an active member (400 at `hostIds`
 * otherwise), else every active member; in the order the members joined. Read under the team's
 * lock, so nobody leaves between this check and the write.
 */
export async function hostsToStore(tx: Tx, teamId: string, given: string[] | undefined): Promise<string[]> {
  const active = await activeMemberIds(tx, teamId);
  if (!given) return active;
  const strangers = given.filter((id) => !active.includes(id));
  if (strangers.length > 0) {
    throw validationError([{ path: "hostIds", message: `Only active members of the team can host; not one: ${strangers.join(", ")}` }]);
  }
  return active.filter((id) => given.includes(id));
}

/** Slugs are unique within a team (event_types_team_slug_key). */
export function teamEventSlugTaken(error: unknown, slug: string | undefined): never {
  if (pgErrorCode(error) === "23505" && pgConstraint(error) === "event_types_team_slug_key") {
    throw new AppError("conflict", `This team already has an event type with the slug "${slug}"`, { field: "slug" });
  }
  throw error;
}
