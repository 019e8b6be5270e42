import { dehydrate, QueryClient, type DehydratedState } from "@tanstack/react-query";
import { getDb } from "@/lib/store/database";
import type { UserRow } from "@/db/schema";
import { bookingsQuery, calendarKeys, hostKeys, webhookKeys, type BookingFilter } from "@/lib/browser/api-client/host";
import { BookingListQuery } from "@/lib/schemas/booking";
import { listBookings } from "@/lib/services/bookings/list";
import { toCalendarConnection, toEventType, toProfile, toTeam, toTeamEventType, toWebhook } from "@/lib/dto";
import { AppError } from "@/lib/errors";
import { teamKeys } from "@/lib/browser/api-client/teams";
import { listTeamEventTypes, listTeams } from "@/lib/services/teams";
import { getAvailability } from "@/lib/services/schedule/availability";
import { listSchedules } from "@/lib/services/schedule/schedules";
import { scheduleKeys } from "@/lib/browser/api-client/schedules";
import { loadConnections } from "@/lib/services/calendars";
import { listEventTypes } from "@/lib/services/event-types/manage";
import { listWebhooks } from "@/lib/services/webhooks";

// The dashboard's pages render with their data (no "Loading…" after the page has loaded): the
// page's server component reads what its client components will ask for, through the same
// services and DTOs as the API, and hands it over under the same query keys
// (lib/browser/api-client/host.ts) as TanStack Query's dehydrated state. The browser then asks again
// only when the data is stale (the client's staleTime), exactly as after its own fetch.

export type Resource = "me" | "availability" | "schedules" | "eventTypes" | "calendarConnections" | "webhooks" | "teams" | { bookings: BookingFilter } | { teamEventTypes: string };

/** The answer as the browser would have read it from JSON (ISO strings, no Dates or undefined). */
const asJson = <T,>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

type Named = Exclude<Resource, object>;

/** A dashboard filter read as the API reads the query string bookingsQuery sends for it. */
export function listQueryOf(filter: BookingFilter) {
  return BookingListQuery.parse(Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== "").map(([k, v]) => [k, String(v)])));
}

/** A page of bookings under the key bookingsQuery(filter) uses. */
async function bookingsLoader(host: UserRow, filter: BookingFilter): Promise<[readonly unknown[], unknown]> {
  return [bookingsQuery(filter).queryKey, await listBookings(await getDb(), host, listQueryOf(filter))];
}

const loaders: Record<Named, (host: UserRow) => Promise<[readonly unknown[], unknown]>> = {
  me: async (host) => [hostKeys.me, toProfile(host)],
  availability: async (host) => [hostKeys.availability, await getAvailability(await getDb(), host)],
  schedules: async (host) => [scheduleKeys.all, await listSchedules(await getDb(), host)],
  eventTypes: async (host) => [hostKeys.eventTypes, (await listEventTypes(await getDb(), host)).map((e) => toEventType(e, host.username))],
  calendarConnections: async (host) => [
    calendarKeys.all,
    (await loadConnections(await getDb(), host.id)).map((c) => toCalendarConnection(c.connection, c.calendars)),
  ],
  teams: async (host) => [teamKeys.all, (await listTeams(await getDb(), host, { page: 1, limit: 100 })).teams.map((t) => toTeam(t.team, t.members))],
  webhooks: async (host) => {
    const now = Date.now();
    return [webhookKeys.all, (await listWebhooks(await getDb(), host)).map((w) => toWebhook(w, now))];
  },
};

/**
 * A team's event types, or nothing when the caller may not read them (not a member, or invited:
 * the page says so in words, and the browser's own request would get the API's answer).
 */
async function teamEventTypesLoader(host: UserRow, teamId: string): Promise<[readonly unknown[], unknown] | null> {
  try {
    const { team, eventTypes } = await listTeamEventTypes(await getDb(), host, teamId);
    return [teamKeys.eventTypes(teamId), eventTypes.map((e) => toTeamEventType(e, team.slug))];
  } catch (error) {
    if (error instanceof AppError && (error.code === "not_found" || error.code === "forbidden")) return null;
    throw error;
  }
}

function load(host: UserRow, r: Resource): Promise<[readonly unknown[], unknown] | null> {
  if (typeof r === "string") return loaders[r](host);
  return "bookings" in r ? bookingsLoader(host, r.bookings) : teamEventTypesLoader(host, r.teamEventTypes);
}

/** The dehydrated cache holding `resources` of `host`, for a HydrationBoundary. */
export async function prefetchFor(host: UserRow, resources: Resource[]): Promise<DehydratedState> {
  const client = new QueryClient();
  const loaded = await Promise.all(resources.map((r) => load(host, r)));
  for (const [key, data] of loaded.filter((l) => l !== null)) client.setQueryData(key, asJson(data));
  return dehydrate(client);
}
