import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import type { CreateScheduleBody, Schedule, ScheduleList, UpdateScheduleBody } from "@/lib/schemas/schedule";
import { fetchJson } from "./fetch-json";

// The host's schedules (decisions §16) for the availability page: one key for the list, and the
// writes. The default schedule is also /me/availability (hostKeys.availability).

export type ScheduleDto = z.output<typeof Schedule>;
export type ScheduleInput = z.input<typeof CreateScheduleBody>;
export type ScheduleChange = z.input<typeof UpdateScheduleBody>;

export const scheduleKeys = { all: ["me", "schedules"] as const };

export const schedulesQuery = () =>
  queryOptions({ queryKey: scheduleKeys.all, queryFn: async () => (await fetchJson<z.output<typeof ScheduleList>>("/me/schedules")).data });

export const createSchedule = (input: ScheduleInput) => fetchJson<ScheduleDto>("/me/schedules", { method: "POST", body: input });

export const saveSchedule = (id: string, change: ScheduleChange) =>
  fetchJson<ScheduleDto>(`/me/schedules/${encodeURIComponent(id)}`, { method: "PUT", body: change });

export const deleteSchedule = (id: string) => fetchJson<undefined>(`/me/schedules/${encodeURIComponent(id)}`, { method: "DELETE" });
