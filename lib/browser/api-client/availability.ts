import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import type { Availability, AvailabilityBody } from "@/lib/schemas/availability";
import type { CreateScheduleBody, Schedule, ScheduleList, UpdateScheduleBody } from "@/lib/schemas/schedule";
import { fetchJson } from "./fetch-json";

// The host's hours, for the availability page: the default schedule (/me/availability, which
// also holds the notice and window) and the named schedules (decisions §16) event types may offer.

export type AvailabilityDto = z.output<typeof Availability>;
export type AvailabilityInput = z.input<typeof AvailabilityBody>;
export type ScheduleDto = z.output<typeof Schedule>;
export type ScheduleInput = z.input<typeof CreateScheduleBody>;
export type ScheduleChange = z.input<typeof UpdateScheduleBody>;

export const availabilityKeys = {
  /** The default schedule. */
  default: ["me", "availability"] as const,
  schedules: ["me", "schedules"] as const,
};

export const availabilityQuery = () =>
  queryOptions({ queryKey: availabilityKeys.default, queryFn: () => fetchJson<AvailabilityDto>("/me/availability") });

export const saveAvailability = (input: AvailabilityInput) => fetchJson<AvailabilityDto>("/me/availability", { method: "PUT", body: input });

export const schedulesQuery = () =>
  queryOptions({ queryKey: availabilityKeys.schedules, queryFn: async () => (await fetchJson<z.output<typeof ScheduleList>>("/me/schedules")).data });

export const createSchedule = (input: ScheduleInput) => fetchJson<ScheduleDto>("/me/schedules", { method: "POST", body: input });

export const saveSchedule = (id: string, change: ScheduleChange) =>
  fetchJson<ScheduleDto>(`/me/schedules/${encodeURIComponent(id)}`, { method: "PUT", body: change });

export const deleteSchedule = (id: string) => fetchJson<undefined>(`/me/schedules/${encodeURIComponent(id)}`, { method: "DELETE" });
