import { z } from "zod";
import { bookingPaymentStatuses, bookingStatuses, cancellers } from "@/db/schema/enums";
import { dayOfDate } from "@/lib/slots";
import { DEFAULT_LOCALE, LOCALES, localeOfTag } from "@/lib/i18n/locales";
import { isInstantInRange, MAX_YEAR, MIN_YEAR } from "@/lib/time/instants";
import { DateString, PathSegment, QueryInt, Text, Timestamp, TimeZone } from "./common";
import { QuestionOut } from "./event-type";
import { MAX_ANSWER_LENGTH } from "@/lib/question-answers";

export const MAX_SLOT_RANGE_DAYS = 31;

/** A timestamp in: any ISO 8601 date-time with an offset (Z or ±hh:mm). Out: epoch milliseconds. */
const InstantIn = z
  .iso.datetime({ offset: true, message: "Must be an ISO 8601 timestamp with an offset, e.g. 2027-03-15T13:00:00Z" })
  .transform((s) => Date.parse(s))
  .refine(isInstantInRange, { message: `Must be an instant in the years ${MIN_YEAR}–${MAX_YEAR}` })
  .meta({ description: "ISO 8601 timestamp with an offset", example: "2027-03-15T13:00:00Z" });

/** When a booking last changed, by the database's clock: what the list's walk of changes orders by. */
const UpdatedAt = z.string().meta({
  description:
    "When the booking last changed (made, confirmed, moved, cancelled, marked a no-show, given its meeting link, its guest's data erased), " +
    "by the database's clock: ISO 8601 UTC with milliseconds. GET /me/bookings?updatedSince= walks the changes by it",
  example: "2027-03-15T13:00:00.123Z",
});

export const PublicEventParams = z.object({ username: PathSegment, eventSlug: PathSegment });

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
  .object({
    startTime: Timestamp,
    endTime: Timestamp,
    displayStart: z.string(),
    displayEnd: z.string(),
    seatsRemaining: z.number().int().optional().meta({ description: "A seated event type with `seats.showRemaining`: the seats still free at this start" }),
  })
  .meta({ id: "Slot" });

export const SlotList = z.object({ timezone: z.string(), slots: z.array(Slot) });

/** GET …/series: the dates a series from `startTime` would take (decisions §19), before the guest books it. */
export const SeriesQuery = z.strictObject({
  startTime: InstantIn,
  occurrences: z.coerce
    .number({ message: "Must be a whole number from 2 to 24" })
    .int("Must be a whole number from 2 to 24")
    .min(2, "Must be at least 2")
    .max(24, "Must be at most 24")
    .meta({ description: "How many occurrences, 2 to the event type's recurrence.maxOccurrences" }),
  timezone: TimeZone,
});

export const SeriesPreview = z
  .object({
    timezone: z.string(),
    occurrences: z.array(
      Slot.omit({ seatsRemaining: true }).extend({
        available: z.boolean().meta({ description: "Whether this occurrence is free now: a series is booked only when every one is" }),
      }),
    ),
  })
  .meta({ id: "SeriesPreview" });

export const PublicEventPage = z.object({
  host: z.object({ fullName: z.string(), username: z.string(), avatarUrl: z.string().nullable(), timezone: z.string() }),
  eventType: z.object({
    slug: z.string(),
    title: z.string(),
    durationMinutes: z.number().int(),
    location: z.string(),
    description: z.string(),
    customQuestions: z.array(QuestionOut),
    seats: z.object({ max: z.number().int(), showRemaining: z.boolean() }).optional().meta({ description: "Group sessions: guests per start; absent: one" }),
    recurrence: z
      .object({ everyWeeks: z.number().int(), maxOccurrences: z.number().int() })
      .optional()
      .meta({ description: "A weekly series the guest may book (the booking's `occurrences`); absent: none" }),
    price: z
      .object({ amount: z.number().int(), currency: z.string(), refundableUntilHours: z.number().int() })
      .optional()
      .meta({ description: "A paid event type: what the guest pays at booking (minor units; a series: per occurrence) and the refund window; absent: free" }),
  }),
});

/** /public/teams/{teamSlug}/{eventSlug}: a team event type's public paths (decisions §15). */
export const PublicTeamEventParams = z.object({ teamSlug: PathSegment, eventSlug: PathSegment });

export const PublicTeamEventPage = z
  .object({
    team: z.object({ slug: z.string(), name: z.string() }),
    schedulingType: z.enum(["round_robin", "collective"]).meta({
      description: "round_robin: one host, whichever is free (spread by the rule); collective: every host attends",
    }),
    hosts: z
      .array(z.object({ fullName: z.string(), username: z.string(), avatarUrl: z.string().nullable(), timezone: z.string() }))
      .meta({ description: "The team members who host it" }),
    eventType: PublicEventPage.shape.eventType,
  })
  .meta({ id: "PublicTeamEventPage" });

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

/** A BCP 47 language tag ("de", "pt-BR"); what Intl cannot read is refused. */
function isLanguageTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/** The guest's language: a tag in, the supported language it names out (English for any other). */
const GuestLanguage = Text.trim()
  .max(35)
  .refine(isLanguageTag, { message: "Must be a BCP 47 language tag, e.g. de or pt-BR" })
  .transform((tag) => localeOfTag(tag) ?? DEFAULT_LOCALE)
  .meta({
    description:
      `Optional. The language of the guest's emails and pages for this booking (confirmation, reschedule, cancellation, the invitation's text, confirmationMessage): a BCP 47 tag; ${LOCALES.join(", ")} are written, any other language is written in English. ` +
      "When absent: the language the guest chose on this site (cookie booking_lang), else the request's Accept-Language, else English.",
    example: "de",
  });

export const CreateBookingBody = z.strictObject({
  startTime: InstantIn,
  guestName: Text.trim().min(1, "Must not be empty").max(100),
  guestEmail: Text.trim().max(254).pipe(z.email("Must be a valid email address")),
  guestTimezone: TimeZone,
  customAnswers: z
    .record(Text.max(64), Text.max(MAX_ANSWER_LENGTH))
    .default({})
    .meta({
      description:
        "Keyed by question id, every value a string checked by its question's type (see Question): a checkboxes answer is the " +
        "chosen options joined by a newline (\\n); a phone number with + and the country code. Empty or missing answers are " +
        "allowed for optional questions only. Refused answers come back as 400 validation_error issues at customAnswers.<id>.",
    }),
  guestLanguage: GuestLanguage.optional(),
  occurrences: z
    .number()
    .int("Must be a whole number")
    .min(1, "Must be at least 1")
    .max(24, "Must be at most 24")
    .default(1)
    .meta({
      description:
        "A recurring event type (decisions §19): how many occurrences to book, `recurrence.everyWeeks` apart at the same wall-clock time in the host's zone, " +
        "from 1 to `recurrence.maxOccurrences`. All or nothing: 409 slot_unavailable with `details.unavailable` (the starts that are not free)",
    }),
});

/** A seat of a seated start (decisions §19): the seats taken now and how many there are. */
export const BookingSeat = z
  .object({ taken: z.number().int(), max: z.number().int() })
  .nullable()
  .meta({ id: "BookingSeat", description: "A seated event type's booking: its start's seats taken (non-cancelled bookings) and its event type's max; null otherwise" });

/** The series a recurring booking belongs to, with every occurrence (decisions §19). */
export const BookingSeries = z
  .object({
    id: z.string(),
    occurrences: z.array(z.object({ id: z.string(), startTime: Timestamp, endTime: Timestamp, status: z.enum(bookingStatuses) })),
  })
  .nullable()
  .meta({ id: "BookingSeries", description: "A recurring booking's series: its id (ser_…) and every occurrence in order of start; null for a single booking" });

/** A paid booking's money (decisions §20): what this booking costs and where it stands. */
export const BookingPayment = z
  .object({
    status: z.enum(bookingPaymentStatuses).meta({ description: "unpaid: the guest has not paid yet (the booking is awaiting_payment, or ended so); paid; refunded: this booking's amount was given back" }),
    amount: z.number().int().meta({ description: "This booking's price in the currency's minor units (cents; yen for JPY). A series' occurrence: its own share" }),
    currency: z.string().meta({ description: "ISO 4217, lower case", example: "eur" }),
  })
  .nullable()
  .meta({ id: "BookingPayment", description: "A paid event type's booking: its price and payment; null for a free booking" });

/** The payment as the guest's booking answer shows it: with the Checkout to pay at. */
export const CheckoutPayment = z
  .object({
    status: z.enum(bookingPaymentStatuses),
    amount: z.number().int().meta({ description: "What the guest pays at the Checkout, in minor units: the price, times the occurrences of a series" }),
    currency: z.string(),
    checkoutUrl: z.string().nullable().meta({ description: "The Stripe Checkout page to pay at while the booking is awaiting_payment; null once it is paid or the hold has ended" }),
    holdExpiresAt: Timestamp.meta({ description: "Until when the time is held for the payment (PAYMENT_HOLD_MINUTES after booking)" }),
  })
  .meta({ id: "CheckoutPayment" });

export const CreatedBooking = z
  .object({
    id: z.string(),
    status: z.enum(bookingStatuses),
    startTime: Timestamp,
    endTime: Timestamp,
    guestName: z.string(),
    guestEmail: z.string(),
    cancelUrl: z.string(),
    rescheduleUrl: z.string().meta({ description: "{APP_URL}/reschedule/{token}: the same secret as cancelUrl" }),
    manageUrl: z.string().meta({ description: "{APP_URL}/booking/{token}: the guest's page for the booking (details, calendar links, reschedule, cancel); the same secret as cancelUrl" }),
    confirmationMessage: z.string(),
    location: z.string().optional().meta({
      description:
        "Where it takes place: the event type's location; for a `video` event type the booking's own meeting link when it is already known " +
        "(VIDEO_URL_TEMPLATE), else the word `video` (the link is made by the host's calendar and sent by email)",
    }),
    hostNames: z
      .array(z.string())
      .optional()
      .meta({ description: "Who the guest meets: the host, the host round robin assigned, or every host of a collective event type" }),
    updatedAt: UpdatedAt,
    seat: BookingSeat.optional(),
    series: BookingSeries.optional(),
    payment: CheckoutPayment.optional().meta({ description: "A paid event type (decisions §20): the booking is awaiting_payment until the guest pays at checkoutUrl" }),
  })
  .meta({ id: "CreatedBooking" });

export const GuestIcsParams = z.object({ token: PathSegment.meta({ description: "The token of the booking's cancelUrl" }) });

export const GuestCancelBody = z.strictObject({
  token: Text.min(1).max(200),
  reason: Text.trim().max(500).optional().meta({ description: "Why the guest cancels: told to the host, kept as cancellationReason" }),
  scope: z.lazy(() => CancelScope),
});

export const GuestRescheduleBody = z.strictObject({ token: Text.min(1).max(200), startTime: InstantIn });

export const GuestRescheduled = z
  .object({
    id: z.string(),
    status: z.enum(["pending", "confirmed"]).meta({ description: "confirmed, or pending: a request still waiting for the host's answer stays one when moved" }),
    startTime: Timestamp,
    endTime: Timestamp,
    previousStartTime: Timestamp,
    message: z.string(),
  })
  .meta({ id: "GuestRescheduled" });

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
    location: z.string().meta({
      description: "The event type's location; for a `video` event type the booking's meeting link, or the word `video` while it is still to come (or none will: the host sends it)",
    }),
    customAnswers: z.record(z.string(), z.string()),
    createdAt: Timestamp,
    updatedAt: UpdatedAt,
    cancellationReason: z.string().nullable(),
    cancelledBy: z.enum(cancellers).nullable().meta({ description: "host (cancelled or declined), guest, or system (a request left unconfirmed until its start)" }),
    previousStartTime: Timestamp.nullable(),
    noShow: z.boolean().meta({ description: "The host marked the guest as not having come" }),
    hosts: z
      .array(z.object({ userId: z.string(), username: z.string(), fullName: z.string() }))
      .meta({ description: "Who hosts it: one host for a personal or round-robin booking, every host of a collective one (the booking's own host first)" }),
    team: z
      .object({ id: z.string(), slug: z.string(), name: z.string() })
      .nullable()
      .meta({ description: "The team of a team event type's booking; null for a personal booking" }),
    seat: BookingSeat,
    series: BookingSeries,
    payment: BookingPayment,
  })
  .meta({ id: "Booking" });

/** The longest search of the bookings list: a name or an address fits, a pasted page does not. */
export const MAX_BOOKING_SEARCH_LENGTH = 200;

/** The list's filters and its page: none of them go with a walk of changes (updatedSince, cursor). */
const NOT_IN_A_WALK = ["status", "noShow", "eventTypeId", "when", "from", "to", "q", "page"] as const;

export const BookingListQuery = z
  .strictObject({
    status: z
      .string()
      .transform((s) => s.split(","))
      .pipe(z.array(z.enum(bookingStatuses)).min(1))
      .optional()
      .meta({ description: "One status, or several joined by commas (pending,confirmed)", example: "pending,confirmed" }),
    noShow: z
      .enum(["true", "false"])
      .transform((v) => v === "true")
      .optional()
      .meta({ description: "true: only bookings whose guest was marked a no-show; false: only the others" }),
    eventTypeId: PathSegment.optional().meta({ description: "Only the bookings of this event type" }),
    when: z
      .enum(["upcoming", "past"])
      .optional()
      .meta({ description: "upcoming: not yet ended, soonest first; past: ended, most recent first" }),
    from: DateString.optional(),
    to: DateString.optional(),
    q: Text.trim()
      .max(MAX_BOOKING_SEARCH_LENGTH, `Must be at most ${MAX_BOOKING_SEARCH_LENGTH} characters`)
      .transform((s) => (s === "" ? undefined : s))
      .optional()
      .meta({ description: "Only the bookings whose guest's name or email contains this text (case-insensitive; % and _ are plain characters)", example: "grace" }),
    format: z
      .enum(["json", "csv"])
      .optional()
      .meta({
        description:
          "csv: every booking of the list's filters (all pages, not page and limit) as a CSV file (text/csv, a header row, one row per booking; docs/insights.md). " +
          "Not with updatedSince or cursor, nor with page",
      }),
    // Optional rather than defaulted, so that a walk can tell a page asked for from none.
    page: z
      .string()
      .regex(/^\d{1,6}$/, "Must be a whole number")
      .transform(Number)
      .pipe(z.number().int().min(1).max(100_000))
      .optional()
      .meta({ description: "The page, from 1 (the default)" }),
    limit: QueryInt(1, 100, 20),
    updatedSince: InstantIn.optional().meta({
      description:
        "Walks the bookings changed at or after this instant instead of listing pages: ordered by updatedAt (then id), " +
        "answered with pagination {limit, nextCursor}. Follow nextCursor until it is null; a booking changed meanwhile comes again later in the same walk. " +
        "Takes only limit and cursor (the other filters and page are refused). An instant in the future answers an empty walk",
      example: "2027-03-15T13:00:00.000Z",
    }),
    cursor: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,200}$/, "Must be a nextCursor this list gave")
      .optional()
      .meta({ description: "The nextCursor of the walk's last answer: the walk goes on after it (opaque). Takes only limit and updatedSince" }),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to) ctx.addIssue({ code: "custom", path: ["to"], message: "Must not be before from" });
    if (q.format === "csv" && q.page !== undefined) ctx.addIssue({ code: "custom", path: ["page"], message: "The CSV holds every page: leave out page" });
    if (q.updatedSince === undefined && q.cursor === undefined) return;
    if (q.format === "csv") ctx.addIssue({ code: "custom", path: ["format"], message: "The CSV is of the list, not of a walk of changes: leave out updatedSince and cursor" });
    for (const field of NOT_IN_A_WALK) {
      if (q[field] !== undefined) {
        ctx.addIssue({ code: "custom", path: [field], message: "A walk of changes (updatedSince or cursor) takes only limit: leave out the list's filters and page" });
      }
    }
  });

/** A page of the list by number (without updatedSince and cursor). */
export const BookingList = z
  .object({
    data: z.array(Booking),
    pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int() }),
  })
  .meta({ description: "A page by number (page, limit): by start time" });

/** A step of a walk of changes (with updatedSince or cursor). */
export const BookingChanges = z
  .object({
    data: z.array(Booking),
    pagination: z.object({
      limit: z.number().int(),
      nextCursor: z
        .string()
        .nullable()
        .meta({ description: "Where the walk goes on (pass it as cursor); null at its end: there is nothing after the last booking shown" }),
    }),
  })
  .meta({ description: "A step of a walk of changes (updatedSince or cursor): by updatedAt, then id" });

/** GET /me/bookings answers a page by number, or with updatedSince or cursor a step of a walk of changes. */
export const BookingPageOrChanges = z.union([BookingList, BookingChanges]);

export const BookingParams = z.object({ bookingId: PathSegment });

export const DeclineBody = z.strictObject({
  reason: Text.trim().max(1000).optional().meta({ description: "Why the host declines: told to the guest, kept as cancellationReason" }),
});

export const NoShowBody = z.strictObject({
  noShow: z.boolean().meta({ description: "true: the guest did not come; false: take the mark back" }),
});

export const BookingHistoryEntry = z
  .object({
    at: Timestamp,
    action: z.enum(["created", "confirmed", "rescheduled", "cancelled", "no_show", "meeting_link", "paid", "refund_requested", "refunded"]),
    actor: z.enum(["guest", "host", "system"]),
    userId: z.string().optional().meta({ description: "The host who acted (actor host)" }),
    from: Timestamp.optional().meta({ description: "rescheduled: the start it left" }),
    to: Timestamp.optional().meta({ description: "rescheduled: the start it moved to" }),
    reason: z.string().nullable().optional().meta({ description: "cancelled: the reason given, if any; refund_requested: why the money goes back (host_cancelled, declined, guest_cancelled, expired_request, late_payment)" }),
    amount: z.number().int().optional().meta({ description: "paid, refund_requested, refunded: the amount in the currency's minor units" }),
    currency: z.string().optional().meta({ description: "paid, refund_requested, refunded: ISO 4217, lower case" }),
    declined: z.boolean().optional().meta({ description: "cancelled: the host declined a request" }),
    noShow: z.boolean().optional().meta({ description: "no_show: the mark set (true) or taken back (false)" }),
    location: z.string().optional().meta({ description: "meeting_link: the meeting link the booking got (decisions §17)" }),
    source: z.enum(["provider", "template"]).optional().meta({ description: "meeting_link: made by the host's calendar (Google Meet, Teams) or from VIDEO_URL_TEMPLATE" }),
  })
  .meta({ id: "BookingHistoryEntry" });

export const BookingHistory = z.object({ data: z.array(BookingHistoryEntry) });

/** How much of a series a cancel takes (decisions §19); a booking outside a series is only itself. */
export const CancelScope = z
  .enum(["this", "following"])
  .default("this")
  .meta({ description: "A series' occurrence: `this` one only, or it and every `following` occurrence that has not started; ignored for a single booking" });

export const HostCancelBody = z.strictObject({ reason: Text.trim().max(1000).optional(), scope: CancelScope });

export const RescheduleBody = z.strictObject({ startTime: InstantIn });
