import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import type { CalendarConnection, CalendarConnectionList, ConnectCalDavBody, OAuthProviderParams, UpdateConnectionBody } from "@/lib/schemas/calendar";
import { API_BASE, fetchJson } from "./fetch-json";

// The host's calendar connections (Google, Microsoft, Apple iCloud): connecting, each calendar's
// flags (conflicts, the write target), syncing now, removing.

export type CalendarConnectionDto = z.output<typeof CalendarConnection>;
export type ConnectedCalendarDto = CalendarConnectionDto["calendars"][number];
export type CalendarProvider = CalendarConnectionDto["provider"];
/** The providers connected through their consent screen (Google, Microsoft). */
export type OAuthCalendarProvider = z.output<typeof OAuthProviderParams>["provider"];
export type ConnectCalDavInput = z.input<typeof ConnectCalDavBody>;
export type CalendarFlagsChange = z.input<typeof UpdateConnectionBody>["calendars"];

export const calendarKeys = { all: ["me", "calendar-connections"] as const };

const connection = (id: string) => `/me/calendar-connections/${encodeURIComponent(id)}`;

export const calendarConnectionsQuery = () =>
  queryOptions({
    queryKey: calendarKeys.all,
    queryFn: async () => (await fetchJson<z.output<typeof CalendarConnectionList>>("/me/calendar-connections")).data,
  });

/** Apple iCloud (CalDAV): the login is checked with the server before anything is stored. */
export const connectCalDav = (input: ConnectCalDavInput) =>
  fetchJson<CalendarConnectionDto>("/me/calendar-connections/provider_c", { method: "POST", body: input });

/** Per-calendar flags. A write target set here is cleared on every other calendar of the host: refetch the list after. */
export const updateConnectionCalendars = (id: string, calendars: CalendarFlagsChange) =>
  fetchJson<CalendarConnectionDto>(connection(id), { method: "PATCH", body: { calendars } });

export const deleteConnection = (id: string) => fetchJson<undefined>(connection(id), { method: "DELETE" });

/** Reads the calendars and busy times now; the answer's status says how it went. */
export const syncConnection = (id: string) => fetchJson<CalendarConnectionDto>(`${connection(id)}/sync`, { method: "POST" });

/** Where the browser goes (a navigation, not a fetch) to start connecting Google or Microsoft: a 302 to the consent screen. */
export const oauthAuthorizeUrl = (provider: OAuthCalendarProvider) => `${API_BASE}/me/calendar-connections/oauth/${provider}/authorize`;
