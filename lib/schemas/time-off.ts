import { z } from "zod";
import { isValidDate } from "@/lib/time/instants";
import { DateString, PathSegment, Text } from "./common";

// Time off and public holidays (decisions §21): whole days of the host's, read in the host's
// zone, on which no slot is offered. What needs the database or the clock (a colleague's
// username, "not in the past", an overlap, a country the holidays library knows) is the
// service's to check; what a body alone can say is said here, so the dashboard's forms say it too.

export const OUT_OF_OFFICE_NOTE_MAX = 500;
export const OUT_OF_OFFICE_MAX_DAYS = 365;
export const WORKING_ON_MAX = 100;

const DAY_MS = 86_400_000;
/** Days from one date to another, both YYYY-MM-DD, counting both ends. */
export const daysInclusive = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

const Username = Text.trim()
  .max(100, "Must be at most 100 characters")
  .transform((u) => u.replace(/^@/, ""));

export const CreateOutOfOfficeBody = z
  .strictObject({
    startDate: DateString.meta({ description: "The first day away (YYYY-MM-DD, in the host's timezone)", example: "2027-03-15" }),
    endDate: DateString.meta({ description: "The last day away, inclusive (YYYY-MM-DD, in the host's timezone); today or later", example: "2027-03-19" }),
    note: Text.trim()
      .max(OUT_OF_OFFICE_NOTE_MAX, `Must be at most ${OUT_OF_OFFICE_NOTE_MAX} characters`)
      .nullable()
      .optional()
      .transform((n) => (n ? n : null))
      .meta({ description: `A few words guests read beside "Away until …", at most ${OUT_OF_OFFICE_NOTE_MAX} characters` }),
    redirectUsername: Username.nullable()
      .optional()
      .transform((u) => (u ? u : null))
      .meta({ description: "A colleague's username: the host's pages send guests to their page while the host is away", example: "ana" }),
  })
  .superRefine((body, ctx) => {
    if (!isValidDate(body.startDate) || !isValidDate(body.endDate)) return;
    if (body.endDate < body.startDate) {
      ctx.addIssue({ code: "custom", path: ["endDate"], message: "Must be on or after the start date" });
    } else if (daysInclusive(body.startDate, body.endDate) > OUT_OF_OFFICE_MAX_DAYS) {
      ctx.addIssue({ code: "custom", path: ["endDate"], message: `Time off can be at most ${OUT_OF_OFFICE_MAX_DAYS} days long; add a second period after this one` });
    }
  });

export const OutOfOfficeParams = z.object({ id: PathSegment });

export const OutOfOffice = z
  .object({
    id: z.string().meta({ example: "ooo_3q8PZ0c1Zr2V9f4uWbq2Cg" }),
    startDate: z.string().meta({ description: "The first day away (YYYY-MM-DD, the host's timezone)" }),
    endDate: z.string().meta({ description: "The last day away, inclusive" }),
    note: z.string().nullable().meta({ description: "Words for guests; null: none" }),
    redirectUsername: z.string().nullable().meta({ description: "The colleague guests are sent to; null: none (or their account is gone)" }),
    redirectFullName: z.string().nullable().meta({ description: "That colleague's name, as their page shows it" }),
  })
  .meta({ id: "OutOfOffice" });

export const OutOfOfficeList = z.object({ data: z.array(OutOfOffice) }).meta({ description: "The host's time off that has not ended, by start" });

const Country = z
  .string()
  .regex(/^[A-Za-z]{2}$/, "Must be a two-letter country code (ISO 3166-1), such as DE")
  .transform((c) => c.toUpperCase());
const Region = z
  .string()
  .regex(/^[A-Za-z0-9]{1,10}$/, "Must be a region code of the country, such as BY")
  .transform((r) => r.toUpperCase());

export const HolidaysBody = z.strictObject({
  country: Country.nullable().meta({ description: "ISO 3166-1 alpha-2 country whose public holidays are days off; null: none", example: "DE" }),
  region: Region.nullable()
    .optional()
    .meta({ description: "One of the country's regions (a state or province) whose holidays count too; null or left out: the whole country's only", example: "BY" }),
  workingOn: z
    .array(DateString)
    .max(WORKING_ON_MAX, `Must list at most ${WORKING_ON_MAX} dates`)
    .default([])
    .transform((dates) => [...new Set(dates)].sort())
    .meta({ description: "Public holidays (YYYY-MM-DD) the host works anyway; duplicates are removed" }),
});

export const UpcomingHoliday = z.object({
  date: z.string().meta({ description: "YYYY-MM-DD" }),
  name: z.string().meta({ description: "The holiday's name, in the host's language where the library has it" }),
  working: z.boolean().meta({ description: "true: listed in workingOn, so not a day off" }),
});

export const Holidays = z
  .object({
    country: z.string().nullable(),
    region: z.string().nullable(),
    workingOn: z.array(z.string()),
    upcoming: z.array(UpcomingHoliday).meta({ description: "The public holidays of the next 12 months (from today in the host's timezone)" }),
  })
  .meta({ id: "Holidays" });
