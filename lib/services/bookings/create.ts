import "server-only";
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import type { Db, Tx } from "@/db";
import { eq } from "drizzle-orm";
import { bookings, eventTypes, type BookingRow, type CustomQuestion, type EventTypeRow, type PaymentRow, type TeamRow, type UserRow } from "@/db/schema";
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
import { newBookingRow } from "./row";
import { bookingCreatedAt, hashCancelToken, seriesUnavailable, slotUnavailable } from "./store";
import { admitGuestBooking, readGuestWindowLocked } from "./guest-limit";
import { writeForHosts } from "@/lib/services/host-time/writes";
import { claimIdempotencyKey, findStoredAnswer, requestHash, storedAnswerOf, type Claim, type StoredResponse } from "@/lib/store/idempotency";
import { bookingEventPayload, type BookingEventPayload } from "@/lib/outbox/booking-events";
import { findBookingTarget } from "./target";
import { loadHostSchedules, blocksFor, type HostSchedule } from "@/lib/services/host-time/load";
import { getPublicTeamEventTypeOrThrow } from "@/lib/services/bookable/public";
import { hostsOfEventType } from "@/lib/services/bookable/one-time-link";
import { claimOneTimeLink, findOneTimeLink, linkGone, recordLinkBooking } from "@/lib/services/event-types/one-time-links";
import { assignHosts, hostsFreeAt, loadRoundRobinStats, spanAround } from "./assign";
import { checkOccurrences, notFreeOf, seriesPlans, seriesSpan, seriesStartsByHost } from "@/lib/services/bookable/series";
import type { BookingSeatView, BookingSeriesView } from "./people";
import { guestLinks as linksFor } from "@/lib/links";
import { guestTokenOf, sealGuestToken } from "./guest-token";
import { checkCalendarsForSeries, refuseIfCalendarsBusy } from "./calendar-check";
import { initialLocation } from "./meeting-link";
import { checkoutOf, holdForPayment, paymentsOrThrow, startCheckout } from "./checkout";
import { awaitsMeetingLink } from "@/lib/meeting-location";

const TOKEN_PURPOSE = "idempotent-answer:cancel-token";
/** The Idempotency-Key scope of a guest's booking: its stored answer is the created booking (a guest's erasure finds it by id). */
export const BOOKING_IDEMPOTENCY_SCOPE = "public-booking";

export type CreatedBookingDto = z.output<typeof CreatedBooking>;

export type CreateBookingResult = {
  booking: CreatedBookingDto;
  /** The answer of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
};

/** The created booking's answer without its links (they carry the guest's secret). */
type Answer = Omit<CreatedBookingDto, "cancelUrl" | "rescheduleUrl" | "manageUrl">;

/**
 * What is kept under the Idempotency-Key: the answer without the guest's secret (decisions §8: the
 * token is stored only hashed, never readable). The secret is kept once, sealed beside the
 * booking (booking_guest_tokens); a replay opens it there and builds the links again. Answers
 * stored before carry a sealed copy of their own.
 */
type StoredAnswer = Answer & { sealedCancelToken?: string };

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
  // Answers stored before updatedAt (at most a day old) lack it: their booking was stamped with its creation time then.
  return { ...rest, updatedAt: rest.updatedAt || (await bookingCreatedAt(db, rest.id)), ...guestLinks(token) };
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
 * in the guest's language; a booking that waits for the host's approval says it is requested, and
 * one that waits for its payment that the time is held until it is paid (decisions §20).
 */
function confirmationMessage(title: string, hostName: string, start: number, end: number, zone: string, location: Location, locale: Locale, status: BookingRow["status"]) {
  const words = messagesOf(locale);
  const template = status === "awaiting_payment" ? words.mail.awaitingPaymentMessage : status === "pending" ? words.mail.requestedMessage : words.mail.confirmationMessage;
  const sentence = fill(template, { title, host: hostName, when: sentenceRange(start, end, zone, locale) });
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
type FoundTarget = { target: BookingTarget | undefined; stored: StoredResponse | undefined; calendarsStale?: boolean; linkId?: string };

/**
 * A guest books a slot (decisions §8). The slot is re-checked and the booking inserted in one
 * transaction; the exclusion constraint settles any race the re-check cannot see.
 */
export async function createBooking(db: Db, args: { username: string; slug: string } & BookingRequest): Promise<CreateBookingResult> {
  const { username, slug } = args;
  const claim = { scope: BOOKING_IDEMPOTENCY_SCOPE, key: args.idempotencyKey };
  const hash = requestHash({ username, slug, input: hashedInput(args.input) });
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
  const hash = requestHash({ teamSlug, slug, input: hashedInput(args.input) });
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

/**
 * A guest books through a one-time link (decisions §21): the event type's own booking (body,
 * rules, idempotency, limits, hosts), also while it is switched off for the public. The link is
 * taken in the booking's transaction (bookUnderLocks), so it makes one booking at most; a link
 * used, expired or withdrawn is 410 gone, and an unknown token 404. A link books one time: a
 * series is refused (400 at `occurrences`), as the guest could not have been offered it.
 */
export async function createLinkBooking(db: Db, args: { token: string } & BookingRequest): Promise<CreateBookingResult> {
  const { token } = args;
  if (args.input.occurrences > 1) throw validationError([{ path: "occurrences", message: "A one-time link books a single time, not a series" }]);
  const claim = { scope: BOOKING_IDEMPOTENCY_SCOPE, key: args.idempotencyKey };
  const hash = requestHash({ link: token, input: hashedInput(args.input) });
  return counted(() =>
    makeBooking(db, args, claim, hash, async (): Promise<FoundTarget> => {
      const [found, stored] = await Promise.all([findOneTimeLink(db, token, args.now), findStoredAnswer(db, claim, hash, args.now)]);
      // The guest's own retry after the link was used by that very request answers as the first time.
      if (stored) return { target: undefined, stored };
      if (!found) throw notFound("Link");
      if (found.end) throw linkGone(found.link, found.end);
      return { target: { eventType: found.eventType, ...(await hostsOfEventType(db, found.eventType)) }, stored: undefined, linkId: found.link.id };
    }),
  );
}

/** The body as its Idempotency-Key's hash reads it: a single booking's as before series existed, so keys stored then still match. */
function hashedInput(input: BookingRequest["input"]) {
  if (input.occurrences !== 1) return input;
  const single: Partial<BookingRequest["input"]> = { ...input };
  delete single.occurrences;
  return single;
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

/**
 * A replay answers what the first request got, even if the event type changed since; a paid
 * booking's answer shows its Checkout as it stands (made now if the first request stopped before
 * Stripe was asked).
 */
async function replay(db: Db, stored: StoredResponse, now: number, claim: Claim): Promise<CreateBookingResult> {
  const booking = await answerOf(db, stored.body);
  if (!booking.payment) return { booking, replayed: true };
  const [found] = await db.select({ row: bookings, title: eventTypes.title }).from(bookings).innerJoin(eventTypes, eq(eventTypes.id, bookings.eventTypeId)).where(eq(bookings.id, booking.id));
  const checkout = found && (await checkoutOf(db, found.row, now));
  if (!checkout) return { booking, replayed: true };
  const { payment, ...view } = checkout;
  const fresh = view.status === "unpaid" && view.checkoutUrl === null && payment.status === "unpaid" && payment.checkoutSessionId === null && payment.holdExpiresAt.getTime() > now;
  const shown = fresh ? await startCheckout(db, { paymentId: payment.id, title: found.title, hostNames: booking.hostNames ?? [], manageUrl: booking.manageUrl, claim, now }) : view;
  return { booking: { ...booking, payment: shown }, replayed: true };
}

/** A booking request with its target found and its answers checked. */
type TargetedRequest = BookingRequest & { claim: Claim; hash: string; target: BookingTarget; customAnswers: Record<string, string>; linkId?: string; paymentId?: string };

async function makeBooking(db: Db, args: BookingRequest, claim: Claim, hash: string, find: () => Promise<FoundTarget>): Promise<CreateBookingResult> {
  const { target, stored, calendarsStale, linkId } = await find();
  if (stored) return replay(db, stored, args.now, claim);
  if (!target) throw notFound("Event type");
  const { eventType, hosts } = target;
  const customAnswers = checkAnswers(eventType.customQuestions, args.input.customAnswers);
  checkOccurrences(eventType, args.input.occurrences);
  // A paid event type's booking holds its time for the payment (decisions §20): refused at once when payments are not set up.
  const paymentId = eventType.price ? (paymentsOrThrow(), newId("pay")) : undefined;
  const hostIds = hosts.map((h) => h.id);
  // Outside any transaction: a slow provider holds up this guest alone, and not for long.
  if (args.input.occurrences > 1) {
    const schedules = await loadHostSchedules(db, hosts, seriesSpan(eventType, args.input.startTime, args.input.occurrences), eventType);
    await checkCalendarsForSeries(db, { eventType, startsByHost: seriesStartsByHost(hosts, eventType, schedules, args.input.startTime, args.input.occurrences), now: args.now });
  } else {
    await refuseIfCalendarsBusy(db, { eventType, hostIds, start: args.input.startTime, now: args.now, staleKnown: calendarsStale });
  }
  const created = await writeForHosts(db, hostIds, (tx) => bookUnderLocks(tx, { ...args, claim, hash, target, customAnswers, linkId, paymentId }), { lockBookings: true });
  if (!("booking" in created)) return replay(db, created, args.now, claim);
  if (!paymentId) return created;
  const { booking } = created;
  const payment = await startCheckout(db, { paymentId, title: eventType.title, hostNames: booking.hostNames ?? [], manageUrl: booking.manageUrl, claim, now: args.now });
  return { booking: { ...booking, payment }, replayed: false };
}

/**
 * The booking's transaction, behind the hosts' locks (writeForHosts): read, decide, commit. The
 * claim, the booking, its outbox row and the stored answer commit together or not at all; a key
 * claimed meanwhile answers with what it stored.
 */
async function bookUnderLocks(tx: Tx, req: TargetedRequest): Promise<CreateBookingResult | StoredResponse> {
  const { eventType, hosts } = req.target;
  const start = req.input.startTime;
  const count = req.input.occurrences;
  const hostIds = hosts.map((h) => h.id);
  // Sent together, one round trip: the claim, the guest's lock and window, the hosts' schedules
  // around the slot (and for round robin what the rule weighs).
  const [claimed, guestWindow, schedules, stats] = await Promise.all([
    claimIdempotencyKey(tx, req.claim, req.hash, req.now),
    getConfig().rateLimits ? readGuestWindowLocked(tx, req.input.guestEmail, req.now) : undefined,
    loadHostSchedules(tx, hosts, count > 1 ? seriesSpan(eventType, start, count) : spanAround(start), eventType),
    eventType.schedulingType === "round_robin" ? loadRoundRobinStats(tx, eventType.id, hostIds, start) : undefined,
  ]);
  if ("replay" in claimed) return claimed.replay;
  // Before the slot is checked: the second of two guests on one link hears 410, not "taken".
  if (req.linkId) await claimOneTimeLink(tx, req.linkId);
  // Refused here, the answer says only that the email is at its limit (guest-limit.ts).
  if (guestWindow) admitGuestBooking(guestWindow);
  if (count > 1) return bookSeries(tx, req, schedules, stats);
  const assigned = assignHosts(eventType, hosts, hostsFreeAt(hosts, eventType, schedules, start, req.now), stats);
  if (!assigned) throw slotUnavailable();
  const seat = seatAfterBooking(eventType, schedules.get(assigned.primary.id)!, start);
  const decided = await decideBooking(tx, req, assigned, { start, seat });
  const hold = req.paymentId ? await holdForPayment(tx, { paymentId: req.paymentId, bookingId: decided.row.id, eventType, hostId: assigned.primary.id, seriesId: null, quantity: 1, now: req.now }) : undefined;
  const result = await commitDecided(tx, req, assigned, [decided], hold);
  if (req.linkId) await recordLinkBooking(tx, req.linkId, result.booking.id);
  return result;
}

/**
 * A series (decisions §19), all or nothing: every occurrence must be free for one host (the
 * personal host; for round robin, a host free for all of them, by the rule), checked by the same
 * engine under the same locks; else 409 naming the occurrences that are not. Each occurrence is
 * a booking of its own, committed in this transaction.
 */
async function bookSeries(tx: Tx, req: TargetedRequest, schedules: Map<string, HostSchedule>, stats: Awaited<ReturnType<typeof loadRoundRobinStats>> | undefined) {
  const { eventType, hosts } = req.target;
  const plans = seriesPlans(hosts, eventType, schedules, req.input.startTime, req.input.occurrences, req.now);
  const whole = plans.filter((p) => p.free.every(Boolean)).map((p) => p.host);
  const assigned = assignHosts(eventType, hosts, whole, stats);
  if (!assigned) throw seriesUnavailable(notFreeOf(plans));
  const { starts } = plans.find((p) => p.host.id === assigned.primary.id)!;
  const schedule = schedules.get(assigned.primary.id)!;
  const seriesId = newId("ser");
  const decided = [];
  for (const start of starts) decided.push(await decideBooking(tx, req, assigned, { start, seriesId, seat: seatAfterBooking(eventType, schedule, start) }));
  // A series pays once, for all its occurrences (decisions §20).
  const hold = req.paymentId
    ? await holdForPayment(tx, { paymentId: req.paymentId, bookingId: decided[0]!.row.id, eventType, hostId: assigned.primary.id, seriesId, quantity: decided.length, now: req.now })
    : undefined;
  return commitDecided(tx, req, assigned, decided, hold);
}

/**
 * Commits the decided bookings (one, or a series' occurrences, each with its booking.created
 * event) and answers with the first. The first is committed last: its answer, the one stored under
 * the Idempotency-Key, is written by its own statement.
 */
async function commitDecided(tx: Tx, req: TargetedRequest, assigned: Assigned, decided: Decided[], hold?: PaymentRow): Promise<CreateBookingResult> {
  const series = decided.length > 1 ? seriesView(decided) : undefined;
  // A hold is told of once paid (payment-events.ts); its answer says what the Checkout will charge.
  const payment = hold && { status: "unpaid" as const, amount: hold.amount, currency: hold.currency, checkoutUrl: null, holdExpiresAt: isoUtc(hold.holdExpiresAt) };
  let stamp = "";
  for (const { token, row, answer, bookedHosts, seat } of [...decided.slice(1), decided[0]!]) {
    const { updatedAt } = await commitNewBooking(tx, {
      row,
      coHostIds: assigned.coHosts.map((h) => h.id),
      event: hold ? null : createdEvent(row, req.target, bookedHosts, req.now, { seat, series }),
      sealedGuestToken: sealGuestToken(token),
      claim: req.claim,
      // Stored with the updatedAt the database stamps (commit.ts); the placeholder never shows.
      answer: { status: 201, body: { ...answer, ...(seat ? { seat } : {}), ...(series ? { series } : {}), ...(payment ? { payment } : {}), updatedAt: "" } satisfies StoredAnswer },
    });
    stamp = updatedAt;
  }
  const first = decided[0]!;
  return {
    booking: { ...first.answer, ...(first.seat ? { seat: first.seat } : {}), ...(series ? { series } : {}), ...(payment ? { payment } : {}), updatedAt: stamp, ...guestLinks(first.token) },
    replayed: false,
  };
}

type Decided = Awaited<ReturnType<typeof decideBooking>>;

/** A series as its bookings show it: every occurrence, in order. */
function seriesView(decided: Decided[]): BookingSeriesView {
  return {
    id: decided[0]!.row.seriesId!,
    occurrences: decided.map(({ row }) => ({ id: row.id, startTime: isoUtc(row.startTime), endTime: isoUtc(row.endTime), status: row.status })),
  };
}

/** A seated start's seats once this booking has taken one (read under the hosts' locks); null when the event type has none. */
function seatAfterBooking(eventType: EventTypeRow, schedule: HostSchedule, start: number): BookingSeatView | null {
  const seats = blocksFor(eventType, schedule).seats;
  if (!seats) return null;
  const taken = seats.starts.find((s) => s.start === start)?.taken ?? 0;
  return { taken: taken + 1, max: seats.max };
}

type Assigned = NonNullable<ReturnType<typeof assignHosts>>;

/**
 * What the booking will be: its guest's secret, its row (its location read for its host) and the
 * answer the guest gets, for the hosts the rule assigned.
 */
async function decideBooking(tx: Tx, req: TargetedRequest, assigned: Assigned, at: { start: number; seriesId?: string; seat: BookingSeatView | null }) {
  const { input, now } = req;
  const { eventType } = req.target;
  const language = input.guestLanguage ?? req.language ?? "en";
  const bookedHosts = [assigned.primary, ...assigned.coHosts];
  const token = randomBytes(32).toString("base64url");
  const id = newId("bkg");
  const location = await initialLocation(tx, eventType.location, assigned.primary.id, id);
  const row = newBookingRow(eventType, {
    id,
    hostId: assigned.primary.id,
    start: at.start,
    guest: { guestName: input.guestName, guestEmail: input.guestEmail, guestTimezone: input.guestTimezone, guestLanguage: language },
    location: location.location,
    customAnswers: req.customAnswers,
    cancelTokenHash: hashCancelToken(token),
    ...(at.seriesId ? { seriesId: at.seriesId } : {}),
    ...(req.paymentId ? { paymentId: req.paymentId } : {}),
    now,
  });
  const answer: Omit<Answer, "updatedAt"> = {
    id: row.id,
    status: row.status,
    startTime: isoUtc(row.startTime),
    endTime: isoUtc(row.endTime),
    guestName: row.guestName,
    guestEmail: row.guestEmail,
    confirmationMessage: confirmationMessage(eventType.title, namesOf(bookedHosts, language), at.start, row.endTime.getTime(), input.guestTimezone, location, language, row.status),
    location: row.location,
    hostNames: bookedHosts.map((h) => h.fullName),
  };
  return { token, row, answer, bookedHosts, seat: at.seat };
}

/** The booking.created event the new booking's commit writes to the outbox: what plans its effects (effects.ts). */
function createdEvent(
  row: BookingRow,
  target: BookingTarget,
  bookedHosts: UserRow[],
  now: number,
  shared: { seat: BookingSeatView | null; series: BookingSeriesView | undefined },
): { kind: "booking.created"; payload: BookingEventPayload } {
  const people = { hosts: bookedHosts.map((h) => ({ userId: h.id, username: h.username, fullName: h.fullName })), team: target.team, seat: shared.seat, series: shared.series ?? null };
  const data = toBooking(row, target.eventType, people);
  return { kind: "booking.created", payload: bookingEventPayload("booking.created", row, { hostIds: bookedHosts.map((h) => h.id) }, now, data) };
}
