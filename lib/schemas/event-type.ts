import { z } from "zod";
import { questionTypes } from "@/db/schema";
import { isInstantInRange, MAX_YEAR, MIN_YEAR } from "@/lib/time";
import { PathSegment, Text, Timestamp, WholeNumber } from "./common";

// Names of Object.prototype's members: a question id is a key of the guest's answers object,
// and "constructor" or "__proto__" there breaks every JavaScript client that reads answers[id].
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/** What a question asks for: free text, or a phone number (checked and stored in E.164). */
export const QuestionType = z.enum(questionTypes).meta({ description: "text: free text; phone: a phone number, stored in E.164" });

const Question = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "Must be 1–64 letters, digits, '_' or '-'")
    .refine((id) => !PROTOTYPE_NAMES.has(id), { message: "This id is reserved; choose another" }),
  label: Text.trim().min(1).max(200),
  required: z.boolean().default(false),
  type: QuestionType.default("text"),
});

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

const fields = {
  slug: z
    .string()
    .max(64)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Must be lower-case letters and digits separated by single hyphens"),
  title: Text.trim().min(1).max(200),
  durationMinutes: WholeNumber(5, 720, "minutes"),
  bufferBeforeMinutes: WholeNumber(0, 240, "minutes"),
  bufferAfterMinutes: WholeNumber(0, 240, "minutes"),
  slotIntervalMinutes: WholeNumber(5, 720, "minutes").nullable(),
  location: Text.max(500),
  description: Text.max(5000),
  customQuestions: Questions,
  color: z.string().regex(/^#[0-9A-Fa-f]{6}$/, "Must be a colour #RRGGBB"),
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
    customQuestions: z.array(z.object({ id: z.string(), label: z.string(), required: z.boolean(), type: QuestionType })),
    isActive: z.boolean(),
    color: z.string(),
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
            "booking_conflict",
            "calendar_conflict",
          ]),
          message: z.string(),
        })
        .catchall(z.unknown()),
    ),
  })
  .meta({ id: "SlotExplanation" });
