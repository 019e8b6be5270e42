import { queryOptions } from "@tanstack/react-query";
import { api, dataOf, type BodyOf, type PathParamsOf, type Schemas } from "./client";
import { API_BASE } from "./fetch-json";

// The host's calendar connections (Google, Microsoft, Apple iCloud): connecting, each calendar's
// flags (conflicts, the write target), syncing now, removing.

export type CalendarConnectionDto = Schemas["CalendarConnection"];
export type ConnectedCalendarDto = CalendarConnectionDto["calendars"][number];
export type CalendarProvider = CalendarConnectionDto["provider"];
/** The providers connected through their consent screen (Google, Microsoft). */
export type OAuthCalendarProvider = PathParamsOf<"/me/calendar-connections/oauth/{provider}/authorize", "get">["provider"];
export type ConnectCalDavInput = BodyOf<"/me/calendar-connections/provider_c", "post">;
export type CalendarFlagsChange = BodyOf<"/me/calendar-connections/{connectionId}", "patch">["calendars"];

export const calendarKeys = { all: ["me", "calendar-connections"] as const };

const connection = (connectionId: string) => ({ params: { path: { connectionId } } });

export const calendarConnectionsQuery = () =>
  queryOptions({
    queryKey: calendarKeys.all,
    queryFn: async () => (await dataOf(api.GET("/me/calendar-connections"))).data,
  });

/** Apple iCloud (CalDAV): the login is checked with the server before anything is stored. */
export const connectCalDav = (input: ConnectCalDavInput) => dataOf(api.POST("/me/calendar-connections/provider_c", { body: input }));

/** Per-calendar flags. A write target set here is cleared on every other calendar of the host: refetch the list after. */
export const updateConnectionCalendars = (id: string, calendars: CalendarFlagsChange) =>
  dataOf(api.PATCH("/me/calendar-connections/{connectionId}", { ...connection(id), body: { calendars } }));

export const deleteConnection = (id: string) => dataOf(api.DELETE("/me/calendar-connections/{connectionId}", connection(id)));

/** Reads the calendars and busy times now; the answer's status says how it went. */
export const syncConnection = (id: string) => dataOf(api.POST("/me/calendar-connections/{connectionId}/sync", connection(id)));

/** Where the browser goes (a navigation, not a fetch) to start connecting Google or Microsoft: a 302 to the consent screen. */
export const oauthAuthorizeUrl = (provider: OAuthCalendarProvider) => `${API_BASE}/me/calendar-connections/oauth/${provider}/authorize`;
