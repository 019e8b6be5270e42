import { z } from "zod";
import { Booking } from "./booking";
import { PathSegment, Text } from "./common";

// A guest's data as one host holds it (decisions §16).

export const GuestParams = z.object({
  email: PathSegment.pipe(Text.trim().max(254).pipe(z.email("Must be an email address"))).meta({
    description: "The guest's email address (any case), URL-encoded",
    example: "grace@example.com",
  }),
});

export const GuestDataQuery = z.strictObject({
  download: z
    .enum(["1"])
    .optional()
    .meta({ description: "1: the same JSON as a file (Content-Disposition: attachment), the guest's data export" }),
});

export const GuestData = z
  .object({
    email: z.string().meta({ description: "The address asked for, in lower case" }),
    bookings: z
      .array(
        Booking.extend({
          answers: z
            .array(z.object({ questionId: z.string(), label: z.string(), answer: z.string() }))
            .meta({ description: "The guest's answers, each with its question's label (an answer to a removed question under its id)" }),
        }),
      )
      .meta({ description: "Every booking of this guest the caller hosts (personal and team), oldest first; none: an empty list" }),
  })
  .meta({ id: "GuestData" });
