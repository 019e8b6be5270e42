import { z } from "zod";
import { choiceDisplays, questionTypes, reminderRecipients, type CustomQuestion } from "@/db/schema/enums";
import { isChoice, MAX_OPTION_LENGTH, MAX_OPTIONS } from "@/lib/question-answers";
import { isInstantInRange, MAX_YEAR, MIN_YEAR } from "@/lib/time/instants";
import { calendarProviders } from "./calendar-providers";
import { isCurrency } from "@/lib/payments/money";
import { PathSegment, Text, Timestamp, WholeNumber } from "./common";

// Names of Object.prototype's members: a question id is a key of the guest's answers object,
// and "constructor" or "__proto__" there breaks every JavaScript client that reads answers[id].
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/** What a question asks for; each type's answer rules are in lib/question-answers.ts. */
export const QuestionType = z.enum(questionTypes).meta({
  description:
    "text: one line of free text (at most 2000 characters); long_text: free text (at most 5000); email: an email address; " +
    "number: a decimal number (a comma is taken for the decimal point; stored with a point); phone: a phone number, stored in E.164; " +
    "single_choice: one of the question's options; checkboxes: any of the question's options, the answer being the chosen options " +
    "joined by a newline (\\n), stored in the options' order",
});

const ChoiceDisplay = z.enum(choiceDisplays).meta({ description: "single_choice only: radio buttons (the default) or a dropdown" });

const Option = Text.refine((o) => !/[\r\n]/.test(o), { message: "An option must be one line (a newline separates checkbox answers)" })
  .trim()
  .min(1, "An option must not be empty")
  .max(MAX_OPTION_LENGTH, `An option has at most ${MAX_OPTION_LENGTH} characters`);

const Question = z
  .strictObject({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, "Must be 1–64 letters, digits, '_' or '-'")
      .refine((id) => !PROTOTYPE_NAMES.has(id), { message: "This id is reserved; choose another" }),
    label: Text.trim().min(1).max(200),
    required: z.boolean().default(false),
    type: QuestionType.default("text"),
    options: z
      .array(Option)
      .min(1, "Add at least one option")
      .max(MAX_OPTIONS, `At most ${MAX_OPTIONS} options`)
      .optional()
      .meta({ description: "single_choice and checkboxes only (required there): 1–50 distinct one-line options, in the order shown" }),
    display: ChoiceDisplay.optional(),
  })
  .superRefine((q, ctx) => {
    if (isChoice(q.type) && !q.options) ctx.addIssue({ code: "custom", path: ["options"], message: "A choice question needs its options (1 to 50)" });
    if (!isChoice(q.type) && q.options) ctx.addIssue({ code: "custom", path: ["options"], message: "Only single_choice and checkboxes questions have options" });
    if (q.type !== "single_choice" && q.display) ctx.addIssue({ code: "custom", path: ["display"], message: "Only single_choice questions have a display" });
    q.options?.forEach((o, i) => {
      if (q.options!.indexOf(o) !== i) ctx.addIssue({ code: "custom", path: ["options", i], message: `"${o}" is already an option` });
    });
  })
  // Stored whole: a single-choice question always says how it is shown.
  .transform((q): CustomQuestion => (q.type === "single_choice" ? { ...q, display: q.display ?? "radio" } : q));

/** A question as the API answers it (event types and the public page). */
export const QuestionOut = z
  .object({
    id: z.string(),
    label: z.string(),
    required: z.boolean(),
    type: QuestionType,
    options: z.array(z.string()).optional().meta({ description: "single_choice and checkboxes only" }),
    display: ChoiceDisplay.optional(),
  })
  .meta({ id: "Question" });

const Questions = z
  .array(Question)
  .max(20, "At most 20 questions")
  .superRefine((questions, ctx) => {
    const ids = new Set<string>();
    questions.forEach((q, i) => {
      if (ids.has(q.id)) ctx.addIssue({ code: "custom", path: [i, "id"], message: "Question ids must be unique" });
      ids.add(q.id);
    });
  });

/** The longest an event type (so a booking of it) lasts: the bookings list bounds its walk of what has not ended by it. */
export const MAX_DURATION_MINUTES = 720;

/** What an event type's slug looks like (the last segment of its booking page's path). */
export const EVENT_TYPE_SLUG_FORMAT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const fields = {
  slug: z.string().max(64).regex(EVENT_TYPE_SLUG_FORMAT, "Must be lower-case letters and digits separated by single hyphens"),
  title: Text.trim().min(1).max(200),
  durationMinutes: WholeNumber(5, MAX_DURATION_MINUTES, "minutes"),
  bufferBeforeMinutes: WholeNumber(0, 240, "minutes"),
  bufferAfterMinutes: WholeNumber(0, 240, "minutes"),
  slotIntervalMinutes: WholeNumber(5, 720, "minutes").nullable(),
  location: Text.max(500).meta({
    description:
      "Where the meeting happens: any text (an address, a phone number, a standing link), or the word `video` for a meeting link " +
      "made for each booking: a Google Meet or Teams link from the host's write-target calendar (Google, Microsoft), else one from " +
      "VIDEO_URL_TEMPLATE, else the guest is told the host will send it. The booking's `location` is then its link (decisions §17).",
  }),
  description: Text.max(5000),
  customQuestions: Questions,
  color: z.string().regex(/^#[0-9A-Fa-f]{6}$/, "Must be a colour #RRGGBB"),
  requiresConfirmation: z.boolean().meta({ description: "Bookings start pending (holding their time) until the host confirms or declines them" }),
  limits: z
    .strictObject({
      perDay: WholeNumber(1, 100, "bookings").optional().meta({ description: "At most so many non-cancelled bookings of this event type per host on one of the host's days" }),
      perWeek: WholeNumber(1, 100, "bookings").optional().meta({ description: "At most so many per host in one ISO week (Monday to Sunday, the host's zone)" }),
    })
    .meta({ description: "Booking limits; {} for none" }),
  reminders: z
    .array(
      z.strictObject({
        minutesBefore: WholeNumber(5, 10080, "minutes"),
        to: z.enum(reminderRecipients).meta({ description: "guest, host or both" }),
      }),
    )
    .max(5, "At most 5 reminders")
    .meta({ description: "Reminders sent before each booking (email; a phone call to the guest too where calls are set up)" }),
  minNoticeHours: WholeNumber(0, 8760, "hours").nullable().meta({ description: "This event type's minimum notice; null: the host's" }),
  maxAdvanceDays: WholeNumber(1, 730, "days").nullable().meta({ description: "How far ahead it can be booked; null: the host's window" }),
  scheduleId: PathSegment.nullable().meta({
    description: "Personal event types: which of the host's schedules (GET /me/schedules) its hours come from; null: the host's default schedule",
  }),
  seats: z
    .strictObject({
      max: WholeNumber(2, 1000, "guests").meta({ description: "How many guests may book one start, each with a booking of their own" }),
      showRemaining: z.boolean().default(true).meta({ description: "Whether slots and the booking page say how many seats are left" }),
    })
    .nullable()
    .meta({
      description:
        "Group sessions (personal and collective event types; round robin: 400): up to `max` guests per start. The host's time is blocked once by the start. " +
        "Lowering `max` below the seats taken keeps those bookings. null: one guest per start",
    }),
  recurrence: z
    .strictObject({
      everyWeeks: WholeNumber(1, 4, "weeks").meta({ description: "Weeks between two occurrences" }),
      maxOccurrences: WholeNumber(2, 24, "occurrences").meta({ description: "The most occurrences a guest may book at once" }),
    })
    .nullable()
    .meta({
      description:
        "Regular sessions (personal and round-robin event types; collective: 400): a guest may book up to `maxOccurrences` starts `everyWeeks` apart " +
        "at the first one's wall-clock time in the host's zone, all or nothing (the booking's `occurrences`). null: one start per booking",
    }),
  price: z
    .strictObject({
      amount: WholeNumber(50, 99_999_999, "minor units").meta({
        description: "What a guest pays, in the currency's minor units (cents; yen for JPY): at least 50, as Stripe needs",
        example: 4990,
      }),
      currency: z
        .string()
        .refine(isCurrency, { message: "Must be an ISO 4217 currency code in lower case, e.g. eur, usd, jpy" })
        .meta({ description: "ISO 4217, lower case", example: "eur" }),
      refundableUntilHours: WholeNumber(0, 720, "hours")
        .default(24)
        .meta({ description: "A guest who cancels until so many hours before the start gets everything back; later, nothing. A host's cancel always refunds in full" }),
    })
    .nullable()
    .meta({
      description:
        "Paid sessions (decisions §20): the guest pays through Stripe Checkout when booking, and the time is held for them meanwhile; a series is paid once for all its occurrences, " +
        "each seat by its guest. Needs payments set up (STRIPE_SECRET_KEY): else 400 at price. null: free",
    }),
  conflictCalendars: z
    .array(PathSegment)
    .max(100, "At most 100 calendars")
    .nullable()
    .meta({
      description:
        "Personal event types: which of the host's calendars (ids from GET /me/calendar-connections) block its times, for slots, explain and the check at booking; " +
        "[] for none. null: every calendar marked checkConflicts. Team event types: always null (each host chooses on their Calendars page). " +
        "A calendar removed later simply drops out of the list (decisions §21)",
    }),
};

export const CreateEventTypeBody = z.strictObject({
  slug: fields.slug,
  title: fields.title,
  durationMinutes: fields.durationMinutes,
  bufferBeforeMinutes: fields.bufferBeforeMinutes.default(0),
  bufferAfterMinutes: fields.bufferAfterMinutes.default(0),
  slotIntervalMinutes: fields.slotIntervalMinutes.optional(),
  location: fields.location.default(""),
  description: fields.description.default(""),
  customQuestions: fields.customQuestions.default([]),
  color: fields.color.default("#2563eb"),
  requiresConfirmation: fields.requiresConfirmation.default(false),
  limits: fields.limits.default({}),
  reminders: fields.reminders.default([]),
  minNoticeHours: fields.minNoticeHours.optional(),
  maxAdvanceDays: fields.maxAdvanceDays.optional(),
  scheduleId: fields.scheduleId.optional(),
  seats: fields.seats.default(null),
  recurrence: fields.recurrence.default(null),
  conflictCalendars: fields.conflictCalendars.default(null),
  price: fields.price.default(null),
});

export const UpdateEventTypeBody = z.strictObject({
  slug: fields.slug.optional(),
  title: fields.title.optional(),
  durationMinutes: fields.durationMinutes.optional(),
  bufferBeforeMinutes: fields.bufferBeforeMinutes.optional(),
  bufferAfterMinutes: fields.bufferAfterMinutes.optional(),
  slotIntervalMinutes: fields.slotIntervalMinutes.optional(),
  location: fields.location.optional(),
  description: fields.description.optional(),
  customQuestions: fields.customQuestions.optional(),
  color: fields.color.optional(),
  isActive: z.boolean().optional(),
  requiresConfirmation: fields.requiresConfirmation.optional(),
  limits: fields.limits.optional(),
  reminders: fields.reminders.optional(),
  minNoticeHours: fields.minNoticeHours.optional(),
  maxAdvanceDays: fields.maxAdvanceDays.optional(),
  scheduleId: fields.scheduleId.optional(),
  seats: fields.seats.optional(),
  recurrence: fields.recurrence.optional(),
  conflictCalendars: fields.conflictCalendars.optional(),
  price: fields.price.optional(),
});

export const EventTypeParams = z.object({ eventTypeId: PathSegment });

export const EventType = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    durationMinutes: z.number().int(),
    bufferBeforeMinutes: z.number().int(),
    bufferAfterMinutes: z.number().int(),
    slotIntervalMinutes: z.number().int(),
    location: z.string(),
    description: z.string(),
    customQuestions: z.array(QuestionOut),
    isActive: z.boolean(),
    color: z.string(),
    requiresConfirmation: z.boolean(),
    limits: z.object({ perDay: z.number().int().optional(), perWeek: z.number().int().optional() }),
    reminders: z.array(z.object({ minutesBefore: z.number().int(), to: z.enum(reminderRecipients) })),
    minNoticeHours: z.number().int().nullable(),
    maxAdvanceDays: z.number().int().nullable(),
    scheduleId: z.string().nullable().meta({ description: "The schedule its hours come from; null: the host's default" }),
    seats: z.object({ max: z.number().int(), showRemaining: z.boolean() }).nullable().meta({ description: "Guests per start; null: one" }),
    recurrence: z.object({ everyWeeks: z.number().int(), maxOccurrences: z.number().int() }).nullable().meta({ description: "Weekly series a guest may book; null: none" }),
    conflictCalendars: z
      .array(z.string())
      .nullable()
      .meta({ description: "The calendars that block its times (ids of the host's calendars that still exist); null: every calendar marked checkConflicts" }),
    price: z
      .object({ amount: z.number().int(), currency: z.string(), refundableUntilHours: z.number().int() })
      .nullable()
      .meta({ description: "What a guest pays when booking (minor units), and the refund window; null: free" }),
    publicUrl: z.string(),
    createdAt: Timestamp,
  })
  .meta({ id: "EventType" });

export const EventTypeList = z.object({ data: z.array(EventType) });

export const ExplainQuery = z.strictObject({
  startTime: z
    .iso.datetime({ offset: true, message: "Must be an ISO 8601 timestamp with an offset, e.g. 2027-03-15T13:00:00Z" })
    .transform((v) => Date.parse(v))
    .refine(isInstantInRange, { message: `Must be an instant in the years ${MIN_YEAR}–${MAX_YEAR}` }),
});

/** A host's connections whose busy data may be old, beside an explanation's reasons (decisions §21). */
const CalendarNotes = z
  .array(
    z.object({
      connectionId: z.string(),
      provider: z.enum(calendarProviders),
      email: z.string(),
      status: z.enum(["connected", "error", "reauth_required"]),
      brokenSince: Timestamp.nullable().meta({ description: "Since when it has been in error or reauth_required; null: connected" }),
      busyAsOf: Timestamp.nullable().meta({ description: "When its stored busy data last matched the provider; null: never read" }),
      message: z.string(),
    }),
  )
  .optional()
  .meta({
    description:
      "Beside the reasons, present only when there is something to say (decisions §21): the host's connections with a calendar that counts for this event type " +
      "whose busy data may be out of date (broken, or older than CALENDAR_FRESH_S), so a start that looks bookable may still clash with events added since",
  });

export const Explanation = z
  .object({
    startTime: Timestamp,
    bookable: z.boolean().meta({ description: "True exactly when the public slot list offers this start" }),
    reasons: z.array(
      z
        .object({
          code: z.enum([
            "event_type_inactive",
            "closed_by_override",
            "outside_hours",
            "dst_gap",
            "not_on_grid",
            "min_notice",
            "beyond_window",
            "out_of_office",
            "holiday",
            "limit_reached",
            "booking_conflict",
            "seats_full",
            "calendar_conflict",
            "busy",
          ]).meta({ description: "busy: in a team's answer, a teammate's booking or calendar conflict as a member who is not an owner sees it (only the time: start, end)" }),
          message: z.string(),
          name: z.string().optional().meta({ description: "holiday only: the public holiday's name, in the request's language where the holiday library has it (else the country's own)" }),
          busyAsOf: Timestamp.nullable()
            .optional()
            .meta({
              description:
                "calendar_conflict only: when the calendar's busy data behind it was last known to match the provider (the connection's busyAsOf; null: never confirmed since it was stored)",
            }),
        })
        .catchall(z.unknown()),
    ),
    calendars: CalendarNotes,
  })
  .meta({ id: "SlotExplanation" });

/** GET /me/teams/{teamId}/event-types/{id}/explain: the answer for each host, and for the team (decisions §15). */
export const TeamExplanation = z
  .object({
    startTime: Timestamp,
    schedulingType: z.enum(["round_robin", "collective"]),
    bookable: z.boolean().meta({ description: "True exactly when the team's public slot list offers this start: any host free (round robin), every host free (collective)" }),
    hosts: z.array(
      z.object({
        userId: z.string(),
        username: z.string(),
        fullName: z.string(),
        bookable: z.boolean().meta({ description: "Whether this host could take the start alone" }),
        reasons: Explanation.shape.reasons.meta({ description: "Why not, in this host's zone" }),
        calendars: CalendarNotes.meta({ description: "The host's connections whose busy data may be old (shown to the host themselves and to the team's owners; present only when there is something to say)" }),
      }),
    ),
  })
  .meta({ id: "TeamSlotExplanation" });
