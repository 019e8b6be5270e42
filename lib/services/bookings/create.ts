import "server-only";
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import type { Db } from "@/db";
import type { BookingRow, CustomQuestion, EventTypeRow, TeamRow, UserRow } from "@/db/schema";
import { getConfig } from "@/lib/config";
import { messagesOf } from "@/lib/i18n/catalogs";
import { andList, fill } from "@/lib/i18n/fill";
import type { Locale } from "@/lib/i18n/locales";
import { toBooking } from "@/lib/dto";
import { AppError, notFound, validationError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { countBookingOutcome } from "@/lib/metrics";
import { sentenceRange } from "@/lib/time/in-words";
import { PHONE_FORMAT_HINT, toE164 } from "@/lib/phone";
import { checkAnswers as checkGuestAnswers } from "@/lib/question-answers";
import type { CreateBookingBody, CreatedBooking } from "@/lib/schemas/booking";
import { open } from "@/lib/secret-box";
import { isoUtc } from "@/lib/time/instants";
import { commitNewBooking } from "./commit";
import { hashCancelToken, slotUnavailable } from "./store";
import { admitGuestBooking, readGuestWindowLocked } from "./guest-limit";
import { writeForHosts } from "@/lib/services/schedule/host-writes";
import { claimIdempotencyKey, findStoredAnswer, requestHash, storedAnswerOf, type StoredResponse } from "@/lib/store/idempotency";
import { bookingEventPayload } from "@/lib/outbox/booking-events";
import { findBookingTarget } from "@/lib/services/event-types/public";
import { loadHostSchedules } from "@/lib/services/schedule/load";
import { getPublicTeamEventTypeOrThrow } from "@/lib/services/teams/public-pages";
import { assignHosts, hostsFreeAt, loadRoundRobinStats, spanAround } from "./assign";
import { guestLinks as linksFor } from "@/lib/links";
import { guestTokenOf, sealGuestToken } from "./guest-token";
import { refuseIfCalendarsBusy } from "./calendar-check";
import { initialLocation } from "./meeting-link";
import { awaitsMeetingLink } from "@/lib/meeting-location";

const MINUTE = 60_000;
const TOKEN_PURPOSE = "idempotent-answer:cancel-token";
/** The Idempotency-Key scope of a guest's booking: its stored answer is the created booking (a guest's erasure finds it by id). */
export const BOOKING_IDEMPOTENCY_SCOPE = "public-booking";

export type CreatedBookingDto = z.output<typeof CreatedBooking>;

export type CreateBookingResult = {
  booking: CreatedBookingDto;
  /** The answer of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
};

/**
 * What is kept under the Idempotency-Key: the answer without the guest's secret (decisions §8: the
 * token is stored only hashed, never readable). The secret is kept once, sealed beside the
 * booking (booking_guest_tokens); a replay opens it there and builds the links again. Answers
 * stored before carry a sealed copy of their own.
 */
type StoredAnswer = Omit<CreatedBookingDto, "cancelUrl" | "rescheduleUrl" | "manageUrl"> & { sealedCancelToken?: string };

/** The links the booking's answer carries (its .ics link is in the emails). */
function guestLinks(token: string): Pick<CreatedBookingDto, "cancelUrl" | "rescheduleUrl" | "manageUrl"> {
  const { cancelUrl, rescheduleUrl, manageUrl } = linksFor(token);
  return { cancelUrl, rescheduleUrl, manageUrl };
}

async function answerOf(db: Db, stored: unknown): Promise<CreatedBookingDto> {
  // Answers stored before tokens were sealed (at most a day old) still carry their link.
  if (stored && typeof stored === "object" && "cancelUrl" in stored) {
    const legacy = stored as Omit<CreatedBookingDto, "rescheduleUrl" | "manageUrl">;
    return { ...legacy, ...guestLinks(legacy.cancelUrl.split("/").pop()!) };
  }
  const { sealedCancelToken, ...rest } = stored as StoredAnswer;
  const token = sealedCancelToken === undefined ? await guestTokenOf(db, rest.id) : open(sealedCancelToken, TOKEN_PURPOSE);
  // A token that no longer opens (the key was replaced) or is no longer kept cannot be shown again.
  if (token === undefined) throw new AppError("conflict", "This booking was made, but its answer can no longer be replayed", { bookingId: rest.id });
  return { ...rest, ...guestLinks(token) };
}

/** The answers as stored (lib/question-answers.ts), or 400 with every issue at its question. */
function checkAnswers(questions: CustomQuestion[], given: Record<string, string>): Record<string, string> {
  const { answers, issues } = checkGuestAnswers(questions, given, { phone: toE164, phoneMessage: PHONE_FORMAT_HINT });
  if (issues.length > 0) throw validationError(issues);
  return answers;
}

/** "Ada Lovelace and Grace Hopper", in the guest's language. */
function namesOf(hosts: UserRow[], locale: Locale): string {
  return andList(locale, hosts.map((h) => h.fullName));
}

/**
 * "Intro call with Ada Lovelace is confirmed for Monday, March 15, 2027, 9:00 AM – 9:30 AM (Europe/Berlin).",
 * in the guest's language; a booking that waits for the host's approval says it is requested.
 */
function confirmationMessage(title: string, hostName: string, start: number, end: number, zone: string, location: Location, locale: Locale, pending: boolean) {
  const words = messagesOf(locale);
  const sentence = fill(pending ? words.mail.requestedMessage : words.mail.confirmationMessage, { title, host: hostName, when: sentenceRange(start, end, zone, locale) });
  // A meeting link still to come is said in words: made by the host's calendar and emailed, or sent by the host.
  const where = awaitsMeetingLink(location.location)
    ? `${words.mail.videoCall} (${location.linkComing ? words.page.videoLinkComing : words.mail.videoLinkByHost})`
    : location.location;
  return where ? `${sentence} ${fill(words.mail.location, { location: where })}` : sentence;
}

type Location = Awaited<ReturnType<typeof initialLocation>>;

type BookingRequest = { idempotencyKey: string; input: z.output<typeof CreateBookingBody>; language?: Locale; now: number };

/** What a booking is made for: the event type and who may host it (one host, or a team's). */
type BookingTarget = { eventType: EventTypeRow; hosts: UserRow[]; team: TeamRow | null };

/**
 * The target behind a public path and what its Idempotency-Key already holds; `calendarsStale`
 * when the first read already found whether the hosts' busy data needs the check at booking.
 */
type FoundTarget = { target: BookingTarget | undefined; stored: StoredResponse | undefined; calendarsStale?: boolean };

/**
 * A guest books a slot (decisions §8). The slot is re-checked and the booking inserted in one
 * transaction; the exclusion constraint settles any race the re-check cannot see.
 */
export async function createBooking(db: Db, args: { username: string; slug: string } & BookingRequest): Promise<CreateBookingResult> {
  const { username, slug } = args;
  const claim = { scope: BOOKING_IDEMPOTENCY_SCOPE, key: args.idempotencyKey };
  const hash = requestHash({ username, slug, input: args.input });
  return counted(() =>
    makeBooking(db, args, claim, hash, async (): Promise<FoundTarget> => {
      // One statement: the event type and what the key already holds (a replay needs nothing else).
      const found = await findBookingTarget(db, username, slug, claim, args.now - getConfig().calendarFreshS * 1000);
      const stored = found ? storedAnswerOf(found.key, hash, args.now) : await findStoredAnswer(db, claim, hash, args.now);
      return { target: found && { eventType: found.eventType, hosts: [found.host], team: null }, stored, calendarsStale: found?.calendarsStale };
    }),
  );
}

/**
 * A guest books a team event type (decisions §15): the personal booking's body, rules,
 * idempotency and limits; round robin assigns a host by the rule, collective books every host.
 */
export async function createTeamBooking(db: Db, args: { teamSlug: string; slug: string } & BookingRequest): Promise<CreateBookingResult> {
  const { teamSlug, slug } = args;
  const claim = { scope: BOOKING_IDEMPOTENCY_SCOPE, key: args.idempotencyKey };
  const hash = requestHash({ teamSlug, slug, input: args.input });
  return counted(() =>
    makeBooking(db, args, claim, hash, async (): Promise<FoundTarget> => {
      const [target, stored] = await Promise.all([
        getPublicTeamEventTypeOrThrow(db, teamSlug, slug).catch((error: unknown) => {
          if (error instanceof AppError && error.code === "not_found") return undefined;
          throw error;
        }),
        findStoredAnswer(db, claim, hash, args.now),
      ]);
      return { target, stored };
    }),
  );
}

async function counted(make: () => Promise<CreateBookingResult>): Promise<CreateBookingResult> {
  try {
    const result = await make();
    countBookingOutcome(result.replayed ? "replayed" : "created");
    return result;
  } catch (error) {
    countBookingOutcome(error instanceof AppError ? error.code : "error");
    throw error;
  }
}

async function makeBooking(
  db: Db,
  args: BookingRequest,
  claim: { scope: string; key: string },
  hash: string,
  find: () => Promise<FoundTarget>,
): Promise<CreateBookingResult> {
  const { input, now } = args;
  const language = input.guestLanguage ?? args.language ?? "en";
  const limits = getConfig().rateLimits;
  // A replay answers what the first request got, even if the event type changed since.
  const replay = async (stored: StoredResponse): Promise<CreateBookingResult> => ({
    booking: await answerOf(db, stored.body),
    replayed: true,
  });
  const { target, stored, calendarsStale } = await find();
  if (stored) return replay(stored);
  if (!target) throw notFound("Event type");

  const { eventType, hosts, team } = target;
  const customAnswers = checkAnswers(eventType.customQuestions, input.customAnswers);
  const start = input.startTime;
  const end = start + eventType.durationMinutes * MINUTE;
  const hostIds = hosts.map((h) => h.id);
  const roundRobin = eventType.schedulingType === "round_robin";
  // Outside any transaction: a slow provider holds up this guest alone, and not for long.
  await refuseIfCalendarsBusy(db, { eventType, hostIds, start, now, staleKnown: calendarsStale });
  const created = await writeForHosts(
    db,
    hostIds,
    async (tx): Promise<CreateBookingResult | StoredResponse> => {
      // Sent together behind the hosts' locks (writeForHosts), one round trip: the claim, the
      // guest's lock and window, the hosts' schedules around the slot (and for round robin what
      // the rule weighs). The claim, the booking, its outbox row and the stored answer commit
      // together or not at all.
      const [claimed, guestWindow, schedules, stats] = await Promise.all([
        claimIdempotencyKey(tx, claim, hash, now),
        limits ? readGuestWindowLocked(tx, input.guestEmail, now) : undefined,
        loadHostSchedules(tx, hosts, spanAround(start), eventType),
        roundRobin ? loadRoundRobinStats(tx, eventType.id, hostIds, start) : undefined,
      ]);
      if ("replay" in claimed) return claimed.replay;
      // Refused here, the answer says only that the email is at its limit (guest-limit.ts).
      if (guestWindow) admitGuestBooking(guestWindow);
      const assigned = assignHosts(eventType, hosts, hostsFreeAt(hosts, eventType, schedules, start, now), stats);
      if (!assigned) throw slotUnavailable();
      const bookedHosts = [assigned.primary, ...assigned.coHosts];

      const token = randomBytes(32).toString("base64url");
      const id = newId("bkg");
      const location = await initialLocation(tx, eventType.location, assigned.primary.id, id);
      const row: BookingRow = {
        id,
        hostId: assigned.primary.id,
        eventTypeId: eventType.id,
        // An event type that needs the host's approval makes a request: it holds the time like a
        // confirmed booking until the host confirms or declines it (decisions §16).
        status: eventType.requiresConfirmation ? "pending" : "confirmed",
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
        location: location.location,
        customAnswers,
        cancelTokenHash: hashCancelToken(token),
        cancellationReason: null,
        cancelledBy: null,
        cancelledAt: null,
        previousStartTime: null,
        noShow: false,
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
        confirmationMessage: confirmationMessage(eventType.title, namesOf(bookedHosts, language), start, end, input.guestTimezone, location, language, row.status === "pending"),
        location: row.location,
        hostNames: bookedHosts.map((h) => h.fullName),
      };
      const people = { hosts: bookedHosts.map((h) => ({ userId: h.id, username: h.username, fullName: h.fullName })), team };
      await commitNewBooking(tx, {
        row,
        coHostIds: assigned.coHosts.map((h) => h.id),
        event: {
          kind: "booking.created",
          payload: bookingEventPayload("booking.created", row, { hostIds: bookedHosts.map((h) => h.id) }, now, toBooking(row, eventType, people)),
        },
        sealedGuestToken: sealGuestToken(token),
        claim,
        answer: { status: 201, body: answer satisfies StoredAnswer },
      });
      return { booking: { ...answer, ...guestLinks(token) }, replayed: false };
    },
    { lockBookings: true },
  );
  return "booking" in created ? created : replay(created);
}
