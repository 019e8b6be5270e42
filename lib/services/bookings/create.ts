import "server-only";
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import type { Db } from "@/db";
import type { BookingRow, CustomQuestion } from "@/db/schema";
import { getConfig } from "@/lib/config";
import { messagesOf } from "@/lib/i18n/catalogs";
import { fill } from "@/lib/i18n/fill";
import type { Locale } from "@/lib/i18n/locales";
import { toBooking } from "@/lib/dto";
import { AppError, notFound, validationError, type RateLimitState } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { countBookingOutcome } from "@/lib/metrics";
import { sentenceRange } from "@/lib/time/in-words";
import { PHONE_FORMAT_HINT, toE164 } from "@/lib/phone";
import { checkAnswers as checkGuestAnswers } from "@/lib/question-answers";
import type { CreateBookingBody, CreatedBooking } from "@/lib/schemas/booking";
import { open, seal } from "@/lib/secret-box";
import { isOfferedSlot } from "@/lib/slots";
import { isoUtc } from "@/lib/time/instants";
import { commitNewBooking } from "./commit";
import { hashCancelToken, slotUnavailable } from "./store";
import { admitGuestBooking, peekGuestBookings, readGuestWindowLocked } from "./guest-limit";
import { writeForHost } from "@/lib/services/schedule/host-writes";
import { claimIdempotencyKey, findStoredAnswer, requestHash, storedAnswerOf, type StoredResponse } from "@/lib/store/idempotency";
import { bookingEventPayload } from "@/lib/outbox/booking-events";
import { findBookingTarget } from "@/lib/services/event-types/public";
import { loadSlotData } from "@/lib/services/schedule/load";
import { guestLinks as linksFor } from "@/lib/links";
import { sealGuestToken } from "./guest-token";

const MINUTE = 60_000;
const DAY = 86_400_000;
const TOKEN_PURPOSE = "idempotent-answer:cancel-token";

export type CreatedBookingDto = z.output<typeof CreatedBooking>;

export type CreateBookingResult = {
  booking: CreatedBookingDto;
  /** The answer of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
  /** The guest's hourly booking limit, as this request left it (not counted for a replay). */
  guestLimit: RateLimitState | undefined;
};

/**
 * What is kept under the Idempotency-Key: the answer without the guest's secret, which is kept
 * sealed (decisions §8: the token is stored only hashed, never readable). A replay opens it and
 * builds the links again.
 */
type StoredAnswer = Omit<CreatedBookingDto, "cancelUrl" | "rescheduleUrl" | "manageUrl"> & { sealedCancelToken: string };

/** The links the booking's answer carries (its .ics link is in the emails). */
function guestLinks(token: string): Pick<CreatedBookingDto, "cancelUrl" | "rescheduleUrl" | "manageUrl"> {
  const { cancelUrl, rescheduleUrl, manageUrl } = linksFor(token);
  return { cancelUrl, rescheduleUrl, manageUrl };
}

function answerOf(stored: unknown): CreatedBookingDto {
  // Answers stored before tokens were sealed (at most a day old) still carry their link.
  if (stored && typeof stored === "object" && "cancelUrl" in stored) {
    const legacy = stored as Omit<CreatedBookingDto, "rescheduleUrl" | "manageUrl">;
    return { ...legacy, ...guestLinks(legacy.cancelUrl.split("/").pop()!) };
  }
  const { sealedCancelToken, ...rest } = stored as StoredAnswer;
  const token = open(sealedCancelToken, TOKEN_PURPOSE);
  // A token that no longer opens (the key was replaced) cannot be shown again.
  if (token === undefined) throw new AppError("conflict", "This booking was made, but its answer can no longer be replayed", { bookingId: rest.id });
  return { ...rest, ...guestLinks(token) };
}

/** The answers as stored (lib/question-answers.ts), or 400 with every issue at its question. */
function checkAnswers(questions: CustomQuestion[], given: Record<string, string>): Record<string, string> {
  const { answers, issues } = checkGuestAnswers(questions, given, { phone: toE164, phoneMessage: PHONE_FORMAT_HINT });
  if (issues.length > 0) throw validationError(issues);
  return answers;
}

/** "Intro call with Ada Lovelace is confirmed for Monday, March 15, 2027, 9:00 AM – 9:30 AM (Europe/Berlin).", in the guest's language. */
function confirmationMessage(title: string, hostName: string, start: number, end: number, zone: string, location: string, locale: Locale) {
  const words = messagesOf(locale).mail;
  const sentence = fill(words.confirmationMessage, { title, host: hostName, when: sentenceRange(start, end, zone, locale) });
  return location ? `${sentence} ${fill(words.location, { location })}` : sentence;
}

/**
 * A guest books a slot (decisions §8). The slot is re-checked and the booking inserted in one
 * transaction; the exclusion constraint settles any race the re-check cannot see.
 */
export async function createBooking(
  db: Db,
  args: { username: string; slug: string; idempotencyKey: string; input: z.output<typeof CreateBookingBody>; language?: Locale; now: number },
): Promise<CreateBookingResult> {
  try {
    const result = await makeBooking(db, args);
    countBookingOutcome(result.replayed ? "replayed" : "created");
    return result;
  } catch (error) {
    countBookingOutcome(error instanceof AppError ? error.code : "error");
    throw error;
  }
}

async function makeBooking(
  db: Db,
  args: { username: string; slug: string; idempotencyKey: string; input: z.output<typeof CreateBookingBody>; language?: Locale; now: number },
): Promise<CreateBookingResult> {
  const { username, slug, input, now } = args;
  const language = input.guestLanguage ?? args.language ?? "en";
  const limits = getConfig().rateLimits;
  // A replay answers what the first request got, even if the event type changed since.
  const claim = { scope: "public-booking", key: args.idempotencyKey };
  const hash = requestHash({ username, slug, input });
  const replay = async (stored: StoredResponse): Promise<CreateBookingResult> => ({
    booking: answerOf(stored.body),
    replayed: true,
    guestLimit: limits ? await peekGuestBookings(db, input.guestEmail, now) : undefined,
  });
  // One statement: the event type and what the key already holds (a replay needs nothing else).
  const target = await findBookingTarget(db, username, slug, claim);
  const stored = target ? storedAnswerOf(target.key, hash, now) : await findStoredAnswer(db, claim, hash, now);
  if (stored) return replay(stored);
  if (!target) throw notFound("Event type");

  const { host, eventType } = target;
  const customAnswers = checkAnswers(eventType.customQuestions, input.customAnswers);
  const start = input.startTime;
  const end = start + eventType.durationMinutes * MINUTE;
  const created = await writeForHost(
    db,
    host.id,
    async (tx): Promise<CreateBookingResult | StoredResponse> => {
      // Sent together behind the host's lock (writeForHost), one round trip: the claim, the
      // guest's lock and window, the schedule around the slot. The claim, the booking, its outbox
      // row and the stored answer commit together or not at all.
      const [claimed, guestWindow, data] = await Promise.all([
        claimIdempotencyKey(tx, claim, hash, now),
        limits ? readGuestWindowLocked(tx, input.guestEmail, now) : undefined,
        loadSlotData(tx, host, eventType, { from: start - DAY, to: start + DAY }),
      ]);
      if ("replay" in claimed) return claimed.replay;
      const guestLimit = guestWindow && admitGuestBooking(guestWindow);
      try {
        if (!isOfferedSlot({ ...data, now }, start)) throw slotUnavailable();

        const token = randomBytes(32).toString("base64url");
        const row: BookingRow = {
          id: newId("bkg"),
          hostId: host.id,
          eventTypeId: eventType.id,
          status: "confirmed",
          startTime: new Date(start),
          endTime: new Date(end),
          bufferBeforeMinutes: eventType.bufferBeforeMinutes,
          bufferAfterMinutes: eventType.bufferAfterMinutes,
          blockedStart: new Date(start - eventType.bufferBeforeMinutes * MINUTE),
          blockedEnd: new Date(end + eventType.bufferAfterMinutes * MINUTE),
          guestName: input.guestName,
          guestEmail: input.guestEmail,
          guestTimezone: input.guestTimezone,
          guestLanguage: language,
          location: eventType.location,
          customAnswers,
          cancelTokenHash: hashCancelToken(token),
          cancellationReason: null,
          cancelledBy: null,
          cancelledAt: null,
          previousStartTime: null,
          sequence: 0,
          createdAt: new Date(now),
          updatedAt: new Date(now),
        };
        const answer: Omit<CreatedBookingDto, "cancelUrl" | "rescheduleUrl" | "manageUrl"> = {
          id: row.id,
          status: row.status,
          startTime: isoUtc(row.startTime),
          endTime: isoUtc(row.endTime),
          guestName: row.guestName,
          guestEmail: row.guestEmail,
          confirmationMessage: confirmationMessage(eventType.title, host.fullName, start, end, input.guestTimezone, row.location, language),
        };
        const sealed: StoredAnswer = { ...answer, sealedCancelToken: seal(token, TOKEN_PURPOSE) };
        await commitNewBooking(tx, {
          row,
          event: { kind: "booking.created", payload: bookingEventPayload("booking.created", row, now, toBooking(row, eventType)) },
          sealedGuestToken: sealGuestToken(token),
          claim,
          answer: { status: 201, body: sealed },
        });
        return { booking: { ...answer, ...guestLinks(token) }, replayed: false, guestLimit };
      } catch (error) {
        // The limit was consulted: the answer reports it, whatever else went wrong.
        if (error instanceof AppError) error.rateLimit ??= guestLimit;
        throw error;
      }
    },
    { lockBookings: true },
  );
  return "booking" in created ? created : replay(created);
}
