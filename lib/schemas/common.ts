import { z } from "zod";
import { isValidDate, isValidTimeZone, TIME_OF_DAY } from "@/lib/time";

export const TimeZone = z
  .string()
  .refine(isValidTimeZone, { message: "Must be an IANA timezone name such as Europe/Berlin" })
  .meta({ description: "IANA timezone name", example: "Europe/Berlin" });

export const DateString = z
  .string()
  .refine(isValidDate, { message: "Must be a date written YYYY-MM-DD" })
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
