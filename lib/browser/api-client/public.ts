import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import type { CreateBookingBody, CreatedBooking, GuestCancelled, PublicEventPage, SeriesPreview, SlotList } from "@/lib/schemas/booking";
import { API_BASE, fetchJson } from "./fetch-json";
import { takePrefetchedSlots } from "./slots-prefetch";

// What any visitor may do: read a host's public event page and its open times, book one, and
// cancel with the token of the confirmation. Types come from the API's schemas, as types only.

export type PublicEventDto = z.output<typeof PublicEventPage>;
export type SlotDto = z.output<typeof SlotList>["slots"][number];
/** The request body as sent (startTime an ISO string; the server's parsed form is a number). */
export type CreateBookingInput = z.input<typeof CreateBookingBody>;
export type CreatedBookingDto = z.output<typeof CreatedBooking>;
export type GuestCancelledDto = z.output<typeof GuestCancelled>;

/**
 * An event type's public path. `owner` is a host's username, or `teams/{teamSlug}` for a team's
 * event type (decisions §15): each of its segments is encoded, the slash between them kept.
 */
const at = (owner: string, slug: string) => `/public/${owner.split("/").map(encodeURIComponent).join("/")}/${encodeURIComponent(slug)}`;

/** The owner segment of a team event type's public paths, for the booking widget. */
export const teamOwner = (teamSlug: string) => `teams/${teamSlug}`;

export const publicKeys = {
  event: (username: string, slug: string) => ["public", username, slug] as const,
  /** Every slot list of one event type, whatever the range and zone: what a booking invalidates. */
  slots: (username: string, slug: string) => ["slots", username, slug] as const,
};

export const publicEventQuery = (username: string, slug: string) =>
  queryOptions({
    queryKey: publicKeys.event(username, slug),
    queryFn: ({ signal }) => fetchJson<PublicEventDto>(at(username, slug), { signal }),
  });

export type SlotRange = { from: string; to: string; timezone: string };

/** Where a booking page's slots are asked for (the inline prefetch builds the same URLs). */
export const slotsPath = (username: string, slug: string) => `${API_BASE}${at(username, slug)}/slots`;

/** Open times between two dates (inclusive, YYYY-MM-DD in `timezone`). */
export async function fetchSlots(username: string, slug: string, range: SlotRange, signal?: AbortSignal) {
  const path = `${at(username, slug)}/slots?${new URLSearchParams(range)}`;
  const prefetched = takePrefetchedSlots(`${API_BASE}${path}`);
  return (await fetchJson<z.output<typeof SlotList>>(path, { signal, prefetched })).slots;
}

/** The same, as a TanStack query (the dashboard's). */
export const slotsQuery = (username: string, slug: string, range: SlotRange) =>
  queryOptions({
    queryKey: [...publicKeys.slots(username, slug), range.from, range.to, range.timezone] as const,
    queryFn: ({ signal }) => fetchSlots(username, slug, range, signal),
  });

/**
 * Books a slot. The caller keeps `idempotencyKey` for as long as it retries the same booking: a
 * repeat after a lost answer gets the first answer back instead of a second booking.
 */
export const createBooking = (args: { username: string; slug: string; idempotencyKey: string; body: CreateBookingInput }) =>
  fetchJson<CreatedBookingDto>(`${at(args.username, args.slug)}/bookings`, {
    method: "POST",
    headers: { "idempotency-key": args.idempotencyKey },
    body: args.body,
  });

/** The dates a series from `startTime` would take, and whether each is free (decisions §19). */
export type SeriesPreviewDto = z.output<typeof SeriesPreview>;
export async function fetchSeriesPreview(owner: string, slug: string, query: { startTime: string; occurrences: number; timezone: string }, signal?: AbortSignal) {
  const params = new URLSearchParams({ startTime: query.startTime, occurrences: String(query.occurrences), timezone: query.timezone });
  return fetchJson<SeriesPreviewDto>(`${at(owner, slug)}/series?${params}`, { signal });
}

/**
 * Cancels with the token from the cancelUrl (the reason, if any, goes to the host); cancelling
 * again answers the same. A series' occurrence takes `following` too: it and every later one.
 */
export const cancelBookingWithToken = (token: string, reason?: string, scope: "this" | "following" = "this") =>
  fetchJson<GuestCancelledDto>("/public/cancel", { method: "POST", body: { token, ...(reason ? { reason } : {}), ...(scope === "following" ? { scope } : {}) } });

export type GuestRescheduledDto = { id: string; status: "confirmed"; startTime: string; endTime: string; previousStartTime: string; message: string };

/** POST /public/reschedule: the guest moves their booking with the token of their links. */
export const rescheduleWithToken = (token: string, startTime: string) =>
  fetchJson<GuestRescheduledDto>("/public/reschedule", { method: "POST", body: { token, startTime } });
