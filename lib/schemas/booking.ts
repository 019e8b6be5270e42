import { z } from "zod";
import { bookingStatuses } from "@/db/schema";
import { dayOfDate } from "@/lib/slots";
import { DateString, Timestamp, TimeZone } from "./common";

export const MAX_SLOT_RANGE_DAYS = 31;

/** A timestamp in: any ISO 8601 date-time with an offset (Z or ±hh:mm). Out: epoch milliseconds. */
const InstantIn = z
  .iso.datetime({ offset: true, message: "Must be an ISO 8601 timestamp with an offset, e.g. 2027-03-15T13:00:00Z" })
  .transform((s) => Date.parse(s))
  .meta({ description: "ISO 8601 timestamp with an offset", example: "2027-03-15T13:00:00Z" });

/** A positive integer written in a query string. */
const QueryInt = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, "Must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .default(fallback);

export const PublicEventParams = z.object({ username: z.string(), eventSlug: z.string() });

export const SlotsQuery = z
  .strictObject({ from: DateString, to: DateString, timezone: TimeZone })
  .superRefine((q, ctx) => {
    const days = dayOfDate(q.to) - dayOfDate(q.from);
    if (days < 0) ctx.addIssue({ code: "custom", path: ["to"], message: "Must not be before from" });
    else if (days > MAX_SLOT_RANGE_DAYS) {
      ctx.addIssue({ code: "custom", path: ["to"], message: `At most ${MAX_SLOT_RANGE_DAYS} days after from` });
    }
  });

export const Slot = z
  .object({ startTime: Timestamp, endTime: Timestamp, displayStart: z.string(), displayEnd: z.string() })
  .meta({ id: "Slot" });

export const SlotList = z.object({ timezone: z.string(), slots: z.array(Slot) });

export const PublicEventPage = z.object({
  host: z.object({ fullName: z.string(), username: z.string(), avatarUrl: z.string().nullable(), timezone: z.string() }),
  eventType: z.object({
    slug: z.string(),
    title: z.string(),
    durationMinutes: z.number().int(),
    location: z.string(),
    description: z.string(),
    customQuestions: z.array(z.object({ id: z.string(), label: z.string(), required: z.boolean(), type: z.literal("text") })),
  }),
});

export const IDEMPOTENCY_KEY_HEADER = {
  name: "Idempotency-Key",
  required: true,
  description:
    "A UUID chosen by the client. The same key and body within 24 hours answer the first response again " +
    "(header Idempotent-Replayed: true); another body 422, a request still in flight 409.",
};

export const IdempotencyKeyHeader = z.object({
  "Idempotency-Key": z.uuid("The Idempotency-Key header is required and must be a UUID"),
});

export const CreateBookingBody = z.strictObject({
  startTime: InstantIn,
  guestName: z.string().trim().min(1, "Must not be empty").max(100),
  guestEmail: z.string().trim().max(254).pipe(z.email("Must be a valid email address")),
  guestTimezone: TimeZone,
  customAnswers: z.record(z.string(), z.string().max(2000)).default({}),
});

export const CreatedBooking = z
  .object({
    id: z.string(),
    status: z.enum(bookingStatuses),
    startTime: Timestamp,
    endTime: Timestamp,
    guestName: z.string(),
    guestEmail: z.string(),
    cancelUrl: z.string(),
    confirmationMessage: z.string(),
  })
  .meta({ id: "CreatedBooking" });

export const GuestCancelBody = z.strictObject({ token: z.string().min(1).max(200) });

export const GuestCancelled = z.object({ id: z.string(), status: z.literal("cancelled"), message: z.string() });

export const Booking = z
  .object({
    id: z.string(),
    eventType: z.object({ id: z.string(), title: z.string() }),
    guestName: z.string(),
    guestEmail: z.string(),
    startTime: Timestamp,
    endTime: Timestamp,
    guestTimezone: z.string(),
    status: z.enum(bookingStatuses),
    location: z.string(),
    customAnswers: z.record(z.string(), z.string()),
    createdAt: Timestamp,
    cancellationReason: z.string().nullable(),
    cancelledBy: z.enum(["host", "guest"]).nullable(),
    previousStartTime: Timestamp.nullable(),
  })
  .meta({ id: "Booking" });

export const BookingListQuery = z
  .strictObject({
    status: z.enum(bookingStatuses).optional(),
    from: DateString.optional(),
    to: DateString.optional(),
    page: QueryInt(1, 100_000, 1),
    limit: QueryInt(1, 100, 20),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ["to"], message: "Must not be before from" });

export const BookingList = z.object({
  data: z.array(Booking),
  pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int() }),
});

export const BookingParams = z.object({ bookingId: z.string() });

export const HostCancelBody = z.strictObject({ reason: z.string().trim().max(1000).optional() });

export const RescheduleBody = z.strictObject({ startTime: InstantIn });
