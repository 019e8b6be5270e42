import "server-only";
import type { UserRow } from "@/db/schema";
import { listTeams } from "@/lib/services/teams";
import { getDb } from "@/lib/store/database";

/** The most teams whose event types the bookings page offers as a filter (the API's page limit). */
const MAX_TEAMS = 100;

/**
 * The teams the host is an active member of, by name: the bookings list shows their bookings, so
 * its event-type filter offers their event types too.
 */
export async function activeTeamsOf(host: UserRow): Promise<{ id: string; name: string }[]> {
  const { teams } = await listTeams(await getDb(), host, { status: "active", page: 1, limit: MAX_TEAMS });
  return teams.map(({ team }) => ({ id: team.id, name: team.name }));
}
