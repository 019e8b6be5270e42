import { z } from "zod";
import { isValidDate, isValidTimeZone, MAX_YEAR, MIN_YEAR, TIME_OF_DAY } from "@/lib/time/instants";

// NUL is refused by PostgreSQL in text and jsonb, and an unpaired UTF-16 surrogate is not
// Unicode at all (jsonb refuses its escape; drivers would silently replace it). With the `u`
// flag a well-formed pair is one code point, so \p{Cs} matches only the unpaired halves.
export const UNSTORABLE = /[\u0000\p{Cs}]/u;

/**
 * Every string the API accepts goes through this type (or a format that already excludes these
 * characters): what it admits can be stored and given back unchanged.
 */
export const Text = z.string().refine((s) => !UNSTORABLE.test(s), {
  message: "Must not contain NUL characters or unpaired surrogates",
});

/**
 * A whole number of `unit` from `min` to `max`, with one plain message for every way it can be
 * wrong (zod would say "Invalid input: expected int, received number" or "Too small: …").
 */
export const WholeNumber = (min: number, max: number, unit: string) => {
  const error = (issue: { input?: unknown }) => (issue.input === undefined ? "Required" : `Must be a whole number of ${unit} from ${min} to ${max}`);
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

export const BIO_MAX = 280;

/**
 * A few words about a host or a team for their public page: plain text (shown escaped, line
 * breaks kept), trimmed; empty or null means none.
 */
export const Bio = Text.trim()
  .max(BIO_MAX, `Must be at most ${BIO_MAX} characters`)
  .nullable()
  .transform((b) => (b === null || b === "" ? null : b))
  .meta({ description: `A few words for the public page, at most ${BIO_MAX} characters; null or empty removes it` });

/** A path segment (a username, slug or id): stored text, and no longer than any id or name. */
export const PathSegment = Text.max(200);

export const TimeZone = z
  .string()
  .refine(isValidTimeZone, { message: "Must be an IANA timezone name such as Europe/Berlin" })
  .meta({ description: "IANA timezone name", example: "Europe/Berlin" });

export const DateString = z
  .string()
  .refine(isValidDate, { message: `Must be a date written YYYY-MM-DD, in the years ${MIN_YEAR}–${MAX_YEAR}` })
  .meta({ description: "Calendar date, YYYY-MM-DD", example: "2027-03-15" });

export const TimeOfDay = z
  .string()
  .regex(TIME_OF_DAY, "Must be a time HH:mm between 00:00 and 24:00")
  .meta({ description: "Time of day, HH:mm (24:00 allowed as an end)", example: "09:00" });

export const Timestamp = z.string().meta({ description: "ISO 8601 UTC timestamp", example: "2027-03-15T13:00:00Z" });

export const ErrorBody = z
  .object({
    error: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "Error" });

export const EmptyBody = z.strictObject({});

/** A positive integer written in a query string. */
export const QueryInt = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, "Must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .default(fallback);
