import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import type { Booking, BookingHistory, BookingList } from "@/lib/schemas/booking";
import { fetchJson } from "./fetch-json";

// The host's bookings, personal and team ones alike (decisions §15): the list and its filters,
// each booking's history, and what a host does to one (cancel, move, confirm, decline, no-show).

export type BookingHostDto = { userId: string; username: string; fullName: string };
export type BookingTeamDto = { id: string; slug: string; name: string };
/**
 * A booking; its hosts and team (decisions §15) are optional here, so that an answer from before
 * teams (a tab open across a release) still renders: no hosts is the host alone, no team personal.
 */
export type BookingDto = Omit<z.output<typeof Booking>, "hosts" | "team"> & { hosts?: BookingHostDto[]; team?: BookingTeamDto | null };
export type BookingListDto = Omit<z.output<typeof BookingList>, "data"> & { data: BookingDto[] };
export type BookingHistoryEntryDto = z.output<typeof BookingHistory>["data"][number];
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

/** Every list, and every booking's history, sits under `all`: a change to a booking invalidates it. */
export const bookingKeys = { all: ["me", "bookings"] as const };

export function bookingsQuery(filter: BookingFilter) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v !== undefined && v !== "") params.set(k, String(v));
  return queryOptions({
    queryKey: [...bookingKeys.all, filter] as const,
    queryFn: () => fetchJson<BookingListDto>(`/me/bookings?${params}`),
  });
}

const booking = (id: string) => `/me/bookings/${encodeURIComponent(id)}`;

/** A booking's history, under the bookings' key: every change to a booking refreshes it too. */
export const bookingHistoryQuery = (id: string) =>
  queryOptions({
    queryKey: [...bookingKeys.all, "history", id] as const,
    queryFn: async () => (await fetchJson<z.output<typeof BookingHistory>>(`${booking(id)}/history`)).data,
  });

export const cancelBooking = (id: string, reason: string) => fetchJson<BookingDto>(`${booking(id)}/cancel`, { method: "POST", body: reason ? { reason } : {} });

export const rescheduleBooking = (id: string, startTime: string) => fetchJson<BookingDto>(`${booking(id)}/reschedule`, { method: "POST", body: { startTime } });

export const confirmBooking = (id: string) => fetchJson<BookingDto>(`${booking(id)}/confirm`, { method: "POST" });

export const declineBooking = (id: string, reason: string) => fetchJson<BookingDto>(`${booking(id)}/decline`, { method: "POST", body: reason ? { reason } : {} });

export const markNoShow = (id: string, noShow: boolean) => fetchJson<BookingDto>(`${booking(id)}/no-show`, { method: "POST", body: { noShow } });
