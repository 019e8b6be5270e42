import { queryOptions } from "@tanstack/react-query";
import { api, dataOf, type BodyOf, type Schemas } from "./client";

// The host's days off (decisions §21): periods of time off (the Time off page, the home's
// reminder) and the public holidays that count (the availability page's section).

export type OutOfOfficeDto = Schemas["OutOfOffice"];
export type OutOfOfficeInput = BodyOf<"/me/out-of-office", "post">;
export type HolidaysDto = Schemas["Holidays"];
export type HolidaysInput = BodyOf<"/me/holidays", "put">;

export const timeOffKeys = { outOfOffice: ["me", "out-of-office"] as const, holidays: ["me", "holidays"] as const };

export const outOfOfficeQuery = () => queryOptions({ queryKey: timeOffKeys.outOfOffice, queryFn: async () => (await dataOf(api.GET("/me/out-of-office"))).data });

export const createOutOfOffice = (input: OutOfOfficeInput) => dataOf(api.POST("/me/out-of-office", { body: input }));
export const deleteOutOfOffice = (id: string) => dataOf(api.DELETE("/me/out-of-office/{id}", { params: { path: { id } } }));

export const holidaysQuery = () => queryOptions({ queryKey: timeOffKeys.holidays, queryFn: () => dataOf(api.GET("/me/holidays")) });

export const saveHolidays = (input: HolidaysInput) => dataOf(api.PUT("/me/holidays", { body: input }));
