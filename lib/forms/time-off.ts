import { CreateOutOfOfficeBody } from "@/lib/schemas/time-off";
import { formatCalendarDate } from "@/lib/time/month-grid";
import type { FormRules } from "./resolver";

// The Time off page's form (decisions §21), checked with the API's own body schema: two dates
// (the last one inclusive), a note for guests, and a colleague guests are sent to meanwhile.

export type OutOfOfficeValues = { startDate: string; endDate: string; note: string; redirectUsername: string };

export const NEW_OUT_OF_OFFICE: OutOfOfficeValues = { startDate: "", endDate: "", note: "", redirectUsername: "" };

export const OUT_OF_OFFICE_FIELDS: readonly string[] = ["startDate", "endDate", "note", "redirectUsername"];

export const outOfOfficeFieldOf = (path: string): string | undefined => (OUT_OF_OFFICE_FIELDS.includes(path) ? path : undefined);

export const outOfOfficeBody = (v: OutOfOfficeValues) => ({
  startDate: v.startDate,
  endDate: v.endDate,
  note: v.note.trim() || null,
  redirectUsername: v.redirectUsername.trim() || null,
});

export const outOfOfficeRules: FormRules<OutOfOfficeValues> = {
  schema: CreateOutOfOfficeBody,
  toBody: outOfOfficeBody,
  fieldOf: outOfOfficeFieldOf,
  words: ({ path }, values) => {
    if (path === "startDate" && values.startDate === "") return "Choose the first day you are away.";
    if (path === "endDate" && values.endDate === "") return "Choose the last day you are away.";
    return undefined;
  },
};

// The dashboard is written in English (lib/dashboard/when.ts): en-US on the server and in the browser.
const LOCALE = "en-US";
const day = (date: string, year: boolean) =>
  new Intl.DateTimeFormat(LOCALE, { timeZone: "UTC", weekday: "short", month: "short", day: "numeric", year: year ? "numeric" : undefined }).format(new Date(`${date}T12:00:00Z`));

/** "Mon, Nov 30 – Sun, Dec 6, 2026" (one day: "Mon, Nov 30, 2026"): a period of whole days, as such. */
export function periodWords(startDate: string, endDate: string): string {
  if (startDate === endDate) return day(startDate, true);
  const sameYear = startDate.slice(0, 4) === endDate.slice(0, 4);
  return `${day(startDate, !sameYear)} – ${day(endDate, true)}`;
}

/** "Monday, November 30": a long date for sentences. */
export const longDay = (date: string) => formatCalendarDate(date, { locale: LOCALE });
