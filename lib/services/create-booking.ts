import { randomBytes } from "node:crypto";
import { DateTime } from "luxon";
import type { z } from "zod";
import type { Db } from "@/db";
import type { CustomQuestion } from "@/db/schema";
import { getConfig } from "@/lib/config";
import { toBooking } from "@/lib/dto";
import { validationError, type ValidationIssue } from "@/lib/http/errors";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import type { CreateBookingBody } from "@/lib/schemas/booking";
import { isOfferedSlot } from "@/lib/slots";
import { isoUtc } from "@/lib/time";
import { hashCancelToken, insertBookingOrConflict, lockHostBookings, retryOnDeadlock, slotUnavailable } from "./booking-store";
import { limitGuestBookings } from "./guest-booking-limit";
import { claimIdempotencyKey, finishIdempotentRequest, releaseIdempotencyKey, requestHash } from "./idempotency";
import { enqueueBookingEvent } from "./outbox";
import { invalidateHost } from "./schedule-cache";
import { getPublicEventTypeOrThrow } from "./public-event-types";
import { loadSlotData } from "./slot-input";

const MINUTE = 60_000;
const DAY = 86_400_000;

export type CreatedBookingResponse = {
  status: number;
  body: unknown;
  replayed: boolean;
  headers: Record<string, string>;
};

/** Every required question answered with a non-empty string, and no answer to an unknown one. */
function checkAnswers(questions: CustomQuestion[], answers: Record<string, string>) {
  const issues: ValidationIssue[] = [];
  const known = new Set(questions.map((q) => q.id));
  for (const id of Object.keys(answers)) {
    if (!known.has(id)) issues.push({ path: `customAnswers.${id}`, message: "Not a question of this event type" });
  }
  for (const q of questions) {
    if (q.required && !answers[q.id]?.trim()) issues.push({ path: `customAnswers.${q.id}`, message: `"${q.label}" needs an answer` });
  }
  if (issues.length > 0) throw validationError(issues);
}

/** "Intro call with Ada Lovelace is confirmed for Monday, March 15, 2027, 9:00 – 9:30 AM (Europe/Berlin)." */
function confirmationMessage(title: string, hostName: string, start: number, end: number, zone: string, location: string) {
  const s = DateTime.fromMillis(start, { zone, locale: "en-US" });
  const e = DateTime.fromMillis(end, { zone, locale: "en-US" });
  const when = `${s.toFormat("cccc, LLLL d, yyyy, h:mm a")} – ${e.toFormat("h:mm a")} (${zone})`;
  return `${title} with ${hostName} is confirmed for ${when}.${location ? ` Location: ${location}.` : ""}`;
}

/**
 * A guest books a slot (decisions §8). The slot is re-checked and the booking inserted in one
 * transaction; the exclusion constraint settles any race the re-check cannot see.
 */
export async function createBooking(
  db: Db,
  args: { username: string; slug: string; idempotencyKey: string; input: z.output<typeof CreateBookingBody>; now: number },
): Promise<CreatedBookingResponse> {
  const { username, slug, input, now } = args;
  // A replay answers what the first request got, even if the event type changed since.
  const claim = { scope: "public-booking", key: args.idempotencyKey };
  const claimed = await claimIdempotencyKey(db, claim, requestHash({ username, slug, input }), now);
  if ("replay" in claimed) return { ...claimed.replay, replayed: true, headers: {} };

  try {
    const { host, eventType } = await getPublicEventTypeOrThrow(db, username, slug);
    checkAnswers(eventType.customQuestions, input.customAnswers);
    const created = await retryOnDeadlock(() => db.transaction(async (tx) => {
      await lockHostBookings(tx, host.id);
      const limit = getConfig().rateLimits ? await limitGuestBookings(tx, input.guestEmail, now) : { headers: {} };

      const start = input.startTime;
      const end = start + eventType.durationMinutes * MINUTE;
      const data = await loadSlotData(tx, host, eventType, { from: start - DAY, to: start + DAY });
      if (!isOfferedSlot({ ...data, now }, start)) throw slotUnavailable();

      const token = randomBytes(32).toString("base64url");
      const row = await insertBookingOrConflict(tx, {
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
        location: eventType.location,
        customAnswers: input.customAnswers,
        cancelTokenHash: hashCancelToken(token),
        createdAt: new Date(now),
        updatedAt: new Date(now),
      });
      await enqueueBookingEvent(tx, "booking.created", host.id, now, toBooking(row, eventType));

      const body = {
        id: row.id,
        status: row.status,
        startTime: isoUtc(row.startTime),
        endTime: isoUtc(row.endTime),
        guestName: row.guestName,
        guestEmail: row.guestEmail,
        cancelUrl: `${getConfig().appUrl}/cancel/${token}`,
        confirmationMessage: confirmationMessage(eventType.title, host.fullName, start, end, input.guestTimezone, row.location),
      };
      await finishIdempotentRequest(tx, claim, { status: 201, body });
      return { status: 201, body, replayed: false, headers: limit.headers };
    }));
    invalidateHost(host.id);
    return created;
  } catch (error) {
    // Errors are not stored: the key is free again for a corrected retry.
    await releaseIdempotencyKey(db, claim).catch((err: unknown) => log.error({ err }, "could not release an idempotency key"));
    throw error;
  }
}

