import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import type { Profile, UpdateProfileBody } from "@/lib/schemas/account";
import type { Availability, AvailabilityBody } from "@/lib/schemas/availability";
import type { Booking, BookingHistory, BookingList } from "@/lib/schemas/booking";
import type { CalendarConnection, CalendarConnectionList, ConnectCalDavBody, OAuthProviderParams, UpdateConnectionBody } from "@/lib/schemas/calendar";
import type { CreateEventTypeBody, EventType, EventTypeList, Explanation, UpdateEventTypeBody } from "@/lib/schemas/event-type";
import type { GuestData } from "@/lib/schemas/guest";
import type { CreatedWebhook, Webhook, WebhookDeliveryList, WebhookList } from "@/lib/schemas/webhook";
import { API_BASE, fetchJson } from "./fetch-json";

// The host's resources, for the dashboard: query option factories (one key per resource, so a
// write can invalidate exactly what it changed) and the writes. Types come from the API's own
// schemas, as types only: zod reaches the browser only with the dashboard's forms (lib/forms).

export type ProfileDto = z.output<typeof Profile>;
export type AvailabilityDto = z.output<typeof Availability>;
export type AvailabilityInput = z.input<typeof AvailabilityBody>;
export type EventTypeDto = z.output<typeof EventType>;
export type EventTypeInput = z.input<typeof CreateEventTypeBody>;
export type EventTypeChange = z.input<typeof UpdateEventTypeBody>;
export type BookingHostDto = { userId: string; username: string; fullName: string };
export type BookingTeamDto = { id: string; slug: string; name: string };
/**
 * A booking; its hosts and team (decisions §15) are optional here, so that an answer from before
 * teams (a tab open across a release) still renders: no hosts is the host alone, no team personal.
 */
export type BookingDto = Omit<z.output<typeof Booking>, "hosts" | "team"> & { hosts?: BookingHostDto[]; team?: BookingTeamDto | null };
export type BookingListDto = Omit<z.output<typeof BookingList>, "data"> & { data: BookingDto[] };
/** status: one status, or several joined by commas ("pending,confirmed"). */
export type BookingFilter = {
  status?: string;
  noShow?: boolean;
  eventTypeId?: string;
  when?: "upcoming" | "past";
  from?: string;
  to?: string;
  /** A part of the guest's name or email. */
  q?: string;
  page?: number;
  limit?: number;
};

export const hostKeys = {
  me: ["me"] as const,
  availability: ["me", "availability"] as const,
  eventTypes: ["me", "event-types"] as const,
  bookings: ["me", "bookings"] as const,
};

/** Ends every token and session of the account (the dashboard's Log out does this first). */
export const signOutEverywhere = () => fetchJson<undefined>("/auth/logout", { method: "POST" });

/** Changes the password; every earlier session ends, so the dashboard signs in again after. */
export const changePassword = (input: { currentPassword: string; newPassword: string }) =>
  fetchJson<{ accessToken: string }>("/me/password", { method: "POST", body: input });

export const meQuery = () => queryOptions({ queryKey: hostKeys.me, queryFn: () => fetchJson<ProfileDto>("/me") });

export const availabilityQuery = () =>
  queryOptions({ queryKey: hostKeys.availability, queryFn: () => fetchJson<AvailabilityDto>("/me/availability") });

export const eventTypesQuery = () =>
  queryOptions({ queryKey: hostKeys.eventTypes, queryFn: async () => (await fetchJson<z.output<typeof EventTypeList>>("/me/event-types")).data });

export function bookingsQuery(filter: BookingFilter) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v !== undefined && v !== "") params.set(k, String(v));
  return queryOptions({
    queryKey: [...hostKeys.bookings, filter] as const,
    queryFn: () => fetchJson<BookingListDto>(`/me/bookings?${params}`),
  });
}

export const updateProfile = (change: z.input<typeof UpdateProfileBody>) => fetchJson<ProfileDto>("/me", { method: "PATCH", body: change });

export const saveAvailability = (input: AvailabilityInput) => fetchJson<AvailabilityDto>("/me/availability", { method: "PUT", body: input });

export const createEventType = (input: EventTypeInput) => fetchJson<EventTypeDto>("/me/event-types", { method: "POST", body: input });

export const updateEventType = (id: string, change: EventTypeChange) =>
  fetchJson<EventTypeDto>(`/me/event-types/${encodeURIComponent(id)}`, { method: "PATCH", body: change });

/** The soft-deleted event type (it has bookings), or undefined when it was removed. */
export const deleteEventType = (id: string) =>
  fetchJson<EventTypeDto | undefined>(`/me/event-types/${encodeURIComponent(id)}`, { method: "DELETE" });

export const cancelBooking = (id: string, reason: string) =>
  fetchJson<BookingDto>(`/me/bookings/${encodeURIComponent(id)}/cancel`, { method: "POST", body: reason ? { reason } : {} });

export const rescheduleBooking = (id: string, startTime: string) =>
  fetchJson<BookingDto>(`/me/bookings/${encodeURIComponent(id)}/reschedule`, { method: "POST", body: { startTime } });

export const confirmBooking = (id: string) => fetchJson<BookingDto>(`/me/bookings/${encodeURIComponent(id)}/confirm`, { method: "POST" });

export const declineBooking = (id: string, reason: string) =>
  fetchJson<BookingDto>(`/me/bookings/${encodeURIComponent(id)}/decline`, { method: "POST", body: reason ? { reason } : {} });

export const markNoShow = (id: string, noShow: boolean) => fetchJson<BookingDto>(`/me/bookings/${encodeURIComponent(id)}/no-show`, { method: "POST", body: { noShow } });

export type BookingHistoryEntryDto = z.output<typeof BookingHistory>["data"][number];

/** A booking's history, under the bookings' key: every change to a booking refreshes it too. */
export const bookingHistoryQuery = (id: string) =>
  queryOptions({
    queryKey: [...hostKeys.bookings, "history", id] as const,
    queryFn: async () => (await fetchJson<z.output<typeof BookingHistory>>(`/me/bookings/${encodeURIComponent(id)}/history`)).data,
  });

export type ExplanationDto = z.output<typeof Explanation>;

export const explainTime = (eventTypeId: string, startTime: string) =>
  fetchJson<ExplanationDto>(`/me/event-types/${encodeURIComponent(eventTypeId)}/explain?${new URLSearchParams({ startTime })}`);

// ---- Webhooks ----

export type WebhookDto = z.output<typeof Webhook>;
export type CreatedWebhookDto = z.output<typeof CreatedWebhook>;
export type WebhookDeliveryListDto = z.output<typeof WebhookDeliveryList>;
export type WebhookEvent = WebhookDto["events"][number];

export const webhookKeys = { all: ["me", "webhooks"] as const, deliveries: (id: string) => ["me", "webhooks", id, "deliveries"] as const };

export const webhooksQuery = () =>
  queryOptions({ queryKey: webhookKeys.all, queryFn: async () => (await fetchJson<z.output<typeof WebhookList>>("/me/webhooks")).data });

export const deliveriesQuery = (id: string, page: number) =>
  queryOptions({
    queryKey: [...webhookKeys.deliveries(id), page] as const,
    queryFn: () => fetchJson<WebhookDeliveryListDto>(`/me/webhooks/${encodeURIComponent(id)}/deliveries?page=${page}&limit=10`),
  });

export const createWebhook = (input: { url: string; events: WebhookEvent[] }) => fetchJson<CreatedWebhookDto>("/me/webhooks", { method: "POST", body: input });
export const updateWebhook = (id: string, change: { url?: string; events?: WebhookEvent[]; isActive?: boolean }) =>
  fetchJson<WebhookDto>(`/me/webhooks/${encodeURIComponent(id)}`, { method: "PATCH", body: change });
export const deleteWebhook = (id: string) => fetchJson<undefined>(`/me/webhooks/${encodeURIComponent(id)}`, { method: "DELETE" });
export const testWebhook = (id: string) => fetchJson<{ messageId: string; type: string }>(`/me/webhooks/${encodeURIComponent(id)}/test`, { method: "POST" });
export const rotateWebhookSecret = (id: string) =>
  fetchJson<{ secret: string; previousSecretExpiresAt: string }>(`/me/webhooks/${encodeURIComponent(id)}/rotate-secret`, { method: "POST" });

// ---- Calendar feed ----

export const createCalendarFeed = () => fetchJson<{ url: string }>("/me/calendar-feed", { method: "POST" });

// ---- Calendars ----

export type CalendarConnectionDto = z.output<typeof CalendarConnection>;
export type ConnectedCalendarDto = CalendarConnectionDto["calendars"][number];
export type CalendarProvider = CalendarConnectionDto["provider"];
/** The providers connected through their consent screen (Google, Microsoft). */
export type OAuthCalendarProvider = z.output<typeof OAuthProviderParams>["provider"];
export type ConnectCalDavInput = z.input<typeof ConnectCalDavBody>;
export type CalendarFlagsChange = z.input<typeof UpdateConnectionBody>["calendars"];

export const calendarKeys = { all: ["me", "calendar-connections"] as const };

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
  fetchJson<CalendarConnectionDto>(`/me/calendar-connections/${encodeURIComponent(id)}`, { method: "PATCH", body: { calendars } });

export const deleteConnection = (id: string) => fetchJson<undefined>(`/me/calendar-connections/${encodeURIComponent(id)}`, { method: "DELETE" });

/** Reads the calendars and busy times now; the answer's status says how it went. */
export const syncConnection = (id: string) =>
  fetchJson<CalendarConnectionDto>(`/me/calendar-connections/${encodeURIComponent(id)}/sync`, { method: "POST" });

/** Where the browser goes (a navigation, not a fetch) to start connecting Google or Microsoft: a 302 to the consent screen. */
export const oauthAuthorizeUrl = (provider: OAuthCalendarProvider) => `${API_BASE}/me/calendar-connections/oauth/${provider}/authorize`;

// ---- A guest's data (decisions §16) ----

export type GuestDataDto = z.output<typeof GuestData>;
export const guestKeys = { one: (email: string) => ["me", "guests", email.trim().toLowerCase()] as const };
const guestPath = (email: string) => `/me/guests/${encodeURIComponent(email.trim())}`;
export const guestQuery = (email: string) => queryOptions({ queryKey: guestKeys.one(email), queryFn: () => fetchJson<GuestDataDto>(guestPath(email)) });
/** The export: the same JSON as a file, fetched by the browser itself with the session cookie. */
export const guestDownloadUrl = (email: string) => `${API_BASE}${guestPath(email)}?download=1`;
export const eraseGuest = (email: string) => fetchJson<undefined>(guestPath(email), { method: "DELETE" });
