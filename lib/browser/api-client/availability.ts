import { queryOptions } from "@tanstack/react-query";
import { api, dataOf, type AnswerOf, type BodyOf } from "./client";

// The host's hours, for the availability page: the default schedule (/me/availability, which
// also holds the notice and window) and the named schedules (decisions §16) event types may offer.

export type AvailabilityDto = AnswerOf<"/me/availability", "get">;
export type AvailabilityInput = BodyOf<"/me/availability", "put">;
export type ScheduleDto = AnswerOf<"/me/schedules/{scheduleId}", "get">;
export type ScheduleInput = BodyOf<"/me/schedules", "post">;
export type ScheduleChange = BodyOf<"/me/schedules/{scheduleId}", "put">;

export const availabilityKeys = {
  /** The default schedule. */
  default: ["me", "availability"] as const,
  schedules: ["me", "schedules"] as const,
};

const schedule = (scheduleId: string) => ({ params: { path: { scheduleId } } });

export const availabilityQuery = () => queryOptions({ queryKey: availabilityKeys.default, queryFn: () => dataOf(api.GET("/me/availability")) });

export const saveAvailability = (input: AvailabilityInput) => dataOf(api.PUT("/me/availability", { body: input }));

export const schedulesQuery = () => queryOptions({ queryKey: availabilityKeys.schedules, queryFn: async () => (await dataOf(api.GET("/me/schedules"))).data });

export const createSchedule = (input: ScheduleInput) => dataOf(api.POST("/me/schedules", { body: input }));

export const saveSchedule = (id: string, change: ScheduleChange) => dataOf(api.PUT("/me/schedules/{scheduleId}", { ...schedule(id), body: change }));

export const deleteSchedule = (id: string) => dataOf(api.DELETE("/me/schedules/{scheduleId}", schedule(id)));
