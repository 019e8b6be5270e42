import { dehydrate, QueryClient, type DehydratedState } from "@tanstack/react-query";
import { getDb } from "@/lib/store/database";
import type { UserRow } from "@/db/schema";
import { bookingsQuery, type BookingFilter } from "@/lib/browser/api-client/bookings";
import { calendarKeys } from "@/lib/browser/api-client/calendars";
import { accountKeys } from "@/lib/browser/api-client/account";
import { availabilityKeys } from "@/lib/browser/api-client/availability";
import { eventTypeKeys } from "@/lib/browser/api-client/event-types";
import { webhookKeys } from "@/lib/browser/api-client/webhooks";
import { apiKeyKeys } from "@/lib/browser/api-client/api-keys";
import { identityKeys } from "@/lib/browser/api-client/identities";
import { timeOffKeys } from "@/lib/browser/api-client/time-off";
import { paymentFilterOf, paymentsQuery, type PaymentFilter } from "@/lib/browser/api-client/payments";
import { PaymentListQuery } from "@/lib/schemas/payment";
import { listPayments } from "@/lib/services/bookings/payments-list";
import { insightsFilterOf, insightsQuery, type InsightsFilter } from "@/lib/browser/api-client/insights";
import { InsightsQuery } from "@/lib/schemas/insights";
import { insightsFor } from "@/lib/services/insights/insights";
import { oneTimeLinksQuery } from "@/lib/browser/api-client/one-time-links";
import { listOneTimeLinks } from "@/lib/services/event-types/one-time-links";
import { teamKeys, TEAMS_PAGE_SIZE } from "@/lib/browser/api-client/teams";
import { BookingListQuery } from "@/lib/schemas/booking";
import { listBookings } from "@/lib/services/bookings/list";
import { toCalendarConnection, toEventType, toOneTimeLink, toProfile, toTeam, toTeamEventType, toTeamInvitation, toWebhook, toApiKey } from "@/lib/dto";
import { identityListOf } from "@/lib/services/accounts/identities";
import { AppError } from "@/lib/errors";
import { getTeam, listInvitations, listTeams } from "@/lib/services/teams";
import { getAvailability } from "@/lib/services/schedules/availability";
import { listSchedules } from "@/lib/services/schedules/manage";
import { loadConnections } from "@/lib/services/calendars";
import { listEventTypes } from "@/lib/services/event-types/manage";
import { hostOwner, teamOwner } from "@/lib/services/event-types/owner";
import { listWebhooks } from "@/lib/services/webhooks";
import { listApiKeys } from "@/lib/services/api-keys";
import { getHolidays } from "@/lib/services/time-off/holidays";
import { listOutOfOffice } from "@/lib/services/time-off/out-of-office";

// The dashboard's pages render with their data (no "Loading…" after the page has loaded): the
// page's server component reads what its client components will ask for, through the same
// services and DTOs as the API, and hands it over under the same query keys (each resource's in
// lib/browser/api-client/) as TanStack Query's dehydrated state. The browser then asks again
// only when the data is stale (the client's staleTime), exactly as after its own fetch.

export type Resource = "me" | "availability" | "schedules" | "eventTypes" | "calendarConnections" | "webhooks" | "apiKeys" | "identities"
  | "outOfOffice"
  | "holidays"
  | "teams"
  | "teamInvitations"
  | { bookings: BookingFilter }
  | { payments: PaymentFilter }
  | { insights: InsightsFilter }
  | { teamEventTypes: string }
  | { team: string }
  | { oneTimeLinks: { eventTypeId: string; teamId?: string } };

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
  me: async (host) => [accountKeys.me, toProfile(host)],
  availability: async (host) => [availabilityKeys.default, await getAvailability(await getDb(), host)],
  schedules: async (host) => [availabilityKeys.schedules, await listSchedules(await getDb(), host)],
  eventTypes: async (host) => [eventTypeKeys.list({ kind: "me" }), (await listEventTypes(await getDb(), hostOwner(host))).eventTypes.map((e) => toEventType(e, host.username))],
  calendarConnections: async (host) => [
    calendarKeys.all,
    (await loadConnections(await getDb(), host.id)).map((c) => toCalendarConnection(c.connection, c.calendars)),
  ],
  // The first page of each, as teamsQuery(1) and invitationsQuery(1) ask for it.
  teams: async (host) => {
    const { teams, total } = await listTeams(await getDb(), host, { status: "active", page: 1, limit: TEAMS_PAGE_SIZE });
    return [teamKeys.page(1), { data: teams.map((t) => toTeam(t.team, t.members)), pagination: { page: 1, limit: TEAMS_PAGE_SIZE, total } }];
  },
  teamInvitations: async (host) => {
    const { invitations, total } = await listInvitations(await getDb(), host, { page: 1, limit: TEAMS_PAGE_SIZE });
    return [teamKeys.invitations(1), { data: invitations.map(toTeamInvitation), pagination: { page: 1, limit: TEAMS_PAGE_SIZE, total } }];
  },
  webhooks: async (host) => {
    const now = Date.now();
    return [webhookKeys.all, (await listWebhooks(await getDb(), host)).map((w) => toWebhook(w, now))];
  },
  apiKeys: async (host) => [apiKeyKeys.all, (await listApiKeys(await getDb(), host)).map(toApiKey)],
  // As GET /me/identities answers (app/api/v1/me/identities/route.ts).
  identities: async (host) => [identityKeys.all, await identityListOf(await getDb(), host)],
  outOfOffice: async (host) => [timeOffKeys.outOfOffice, await listOutOfOffice(await getDb(), host)],
  holidays: async (host) => [timeOffKeys.holidays, getHolidays(host)],
};

/**
 * A team's event types, or nothing when the caller may not read them (not a member, or invited:
 * the page says so in words, and the browser's own request would get the API's answer).
 */
async function teamEventTypesLoader(host: UserRow, teamId: string): Promise<[readonly unknown[], unknown] | null> {
  try {
    const { team, eventTypes } = await listEventTypes(await getDb(), teamOwner(host, teamId));
    return [eventTypeKeys.list({ kind: "team", teamId }), eventTypes.map((e) => toTeamEventType(e, team!.slug))];
  } catch (error) {
    if (error instanceof AppError && (error.code === "not_found" || error.code === "forbidden")) return null;
    throw error;
  }
}

/** One team, or nothing when the caller is not in it (the page says "Team not found"). */
async function teamLoader(host: UserRow, teamId: string): Promise<[readonly unknown[], unknown] | null> {
  try {
    const { team, members, emailInvitations } = await getTeam(await getDb(), host, teamId);
    return [teamKeys.team(teamId), toTeam(team, members, emailInvitations)];
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
}

/** An event type's unused one-time links, or nothing when the caller may not read them (the editor says so). */
async function oneTimeLinksLoader(host: UserRow, { eventTypeId, teamId }: { eventTypeId: string; teamId?: string }): Promise<[readonly unknown[], unknown] | null> {
  try {
    const links = await listOneTimeLinks(await getDb(), teamId ? teamOwner(host, teamId) : hostOwner(host), eventTypeId);
    return [oneTimeLinksQuery(teamId ? { kind: "team", teamId } : { kind: "me" }, eventTypeId).queryKey, links.map(toOneTimeLink)];
  } catch (error) {
    if (error instanceof AppError && (error.code === "not_found" || error.code === "forbidden")) return null;
    throw error;
  }
}

/** A page of payments (and whether payments are set up) under the key paymentsQuery(filter) uses. */
async function paymentsLoader(host: UserRow, filter: PaymentFilter): Promise<[readonly unknown[], unknown]> {
  const f = paymentFilterOf(filter);
  const query = PaymentListQuery.parse({ ...f, page: f.page === undefined ? undefined : String(f.page) });
  return [paymentsQuery(f).queryKey, await listPayments(await getDb(), host, query)];
}

/** The insights of a filter (the page hands over one the API accepts) under the key insightsQuery(filter) uses. */
async function insightsLoader(host: UserRow, filter: InsightsFilter): Promise<[readonly unknown[], unknown]> {
  const f = insightsFilterOf(filter);
  return [insightsQuery(f).queryKey, await insightsFor(await getDb(), host, InsightsQuery.parse(f))];
}

function load(host: UserRow, r: Resource): Promise<[readonly unknown[], unknown] | null> {
  if (typeof r === "string") return loaders[r](host);
  if ("payments" in r) return paymentsLoader(host, r.payments);
  if ("insights" in r) return insightsLoader(host, r.insights);
  if ("oneTimeLinks" in r) return oneTimeLinksLoader(host, r.oneTimeLinks);
  if ("bookings" in r) return bookingsLoader(host, r.bookings);
  return "team" in r ? teamLoader(host, r.team) : teamEventTypesLoader(host, r.teamEventTypes);
}

/** The dehydrated cache holding `resources` of `host`, for a HydrationBoundary. */
export async function prefetchFor(host: UserRow, resources: Resource[]): Promise<DehydratedState> {
  const client = new QueryClient();
  const loaded = await Promise.all(resources.map((r) => load(host, r)));
  for (const [key, data] of loaded.filter((l) => l !== null)) client.setQueryData(key, asJson(data));
  return dehydrate(client);
}
