import "server-only";
import { readableLocation } from "@/lib/meeting-location";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { bookings, calls, eventTypes, users, type BookingRow, type CallAgent, type EventTypeRow, type UserRow } from "@/db/schema";
import { getConfig, type CallsProviderConfig } from "@/lib/config";
import { CALLS_PATHS } from "@/lib/calls/descriptor";
import { CallNotPlaced, callsProviderOrThrow, createCall, type PlacedCall } from "@/lib/calls/provider";
import { followupScript, reminderScript, sayTwiml, type CallSubject } from "@/lib/calls/scripts";
import { toCall, type CallDto } from "@/lib/dto";
import { AppError, notFound, validationError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { guestPhoneOf } from "@/lib/services/bookings/guest-phone";
import { assertModifiable, hostedBy } from "@/lib/services/bookings/store";
import { siteUrl, spokenSite } from "@/lib/links";

// The two agents of the outbound-calling service (decisions §2): the reminder calls a guest
// before their booking, the follow-up after a cancellation or a missed meeting to offer a new
// time. Both call the number the guest gave for the event type's phone question.

type BookingForCall = { booking: BookingRow; eventType: EventTypeRow };

async function bookingForHostOrThrow(db: Db, host: UserRow, bookingId: string): Promise<BookingForCall> {
  const [row] = await db
    .select({ booking: bookings, eventType: eventTypes })
    .from(bookings)
    .innerJoin(eventTypes, eq(eventTypes.id, bookings.eventTypeId))
    .where(and(eq(bookings.id, bookingId), hostedBy(host.id)))
    .limit(1);
  if (!row) throw notFound("Booking");
  return row;
}

/** The reminder is for a booking still to come; the follow-up for one cancelled or past. */
function assertAgentApplies(agent: CallAgent, booking: BookingRow, now: number): void {
  if (agent === "reminder") return assertModifiable(booking, now);
  if (booking.status !== "cancelled" && booking.endTime.getTime() > now) {
    throw new AppError("booking_not_modifiable", "A follow-up call is for a cancelled booking or one whose time has passed", {
      status: booking.status,
    });
  }
}

/** The guest's number in E.164; 400 when there is none. */
function guestNumber({ booking, eventType }: BookingForCall): string {
  const number = guestPhoneOf(booking, eventType.customQuestions);
  if (number) return number;
  throw validationError(
    [{ path: "bookingId", message: "This booking has no phone number: its event type asks no phone question, or the guest gave no valid answer" }],
    "The guest cannot be called",
  );
}

function script(agent: CallAgent, host: UserRow, { booking, eventType }: BookingForCall): string {
  const subject: CallSubject = {
    guestName: booking.guestName,
    guestTimezone: booking.guestTimezone,
    hostName: host.fullName,
    title: eventType.title,
    startTime: booking.startTime,
    // Spoken to the guest: a meeting link that did not come is the host's to send.
    location: readableLocation(booking.location, { videoCall: "a video call", videoLinkByHost: "the host sends the link" }),
  };
  if (agent === "reminder") return reminderScript(subject);
  // An event type no longer offered has no page: the host's page lists what is.
  const address = spokenSite();
  const bookingPage = eventType.isActive ? `${address}/${host.username}/${eventType.slug}` : `${address}/${host.username}`;
  return followupScript({ ...subject, cancelled: booking.status === "cancelled", bookingPage });
}

/**
 * POST /api/calls/{agent}/outbound: calls the guest of one of the host's bookings. The call is
 * recorded (`requested`) before the provider is asked, so every attempt leaves a record: with the
 * provider's call sid and status when it accepted, `failed` with the reason when it did not (503).
 */
export async function placeCall(db: Db, host: UserRow, agent: CallAgent, bookingId: string, now: number): Promise<CallDto> {
  const provider = callsProviderOrThrow();
  const found = await bookingForHostOrThrow(db, host, bookingId);
  assertAgentApplies(agent, found.booking, now);
  return dial(db, provider, host, agent, found, guestNumber(found), now);
}

/**
 * The reminder agent's call before a booking, from the outbox (decisions §16): placed on behalf
 * of the booking's own host. Undefined when there is nothing to do: calls are not configured, the
 * booking is gone, or its guest gave no phone number. A provider failure throws (CallNotPlaced).
 */
export async function placeReminderCall(db: Db, bookingId: string, now: number): Promise<CallDto | undefined> {
  const provider = getConfig().calls;
  if (!provider) return undefined;
  const [found] = await db
    .select({ booking: bookings, eventType: eventTypes, host: users })
    .from(bookings)
    .innerJoin(eventTypes, eq(eventTypes.id, bookings.eventTypeId))
    .innerJoin(users, eq(users.id, bookings.hostId))
    .where(eq(bookings.id, bookingId))
    .limit(1);
  if (!found) return undefined;
  const to = guestPhoneOf(found.booking, found.eventType.customQuestions);
  if (!to) return undefined;
  return dial(db, provider, found.host, "reminder", found, to, now);
}

/** Records the call (`requested`), asks the provider, and keeps what it answered. */
async function dial(db: Db, provider: CallsProviderConfig, host: UserRow, agent: CallAgent, found: BookingForCall, to: string, now: number): Promise<CallDto> {
  const twiml = sayTwiml(script(agent, host, found));

  const [requested] = await db
    .insert(calls)
    .values({ id: newId("call"), hostId: host.id, bookingId: found.booking.id, agent, toNumber: to, status: "requested", createdAt: new Date(now), updatedAt: new Date(now) })
    .returning();
  const callId = requested!.id;
  let placed: PlacedCall;
  try {
    placed = await createCall(provider, { to, twiml, statusCallback: siteUrl(CALLS_PATHS.webhook) });
  } catch (error) {
    const reason = error instanceof CallNotPlaced ? error.reason : "unexpected error";
    await db.update(calls).set({ status: "failed", error: reason, updatedAt: new Date() }).where(eq(calls.id, callId));
    if (error instanceof CallNotPlaced) error.details.callId = callId;
    throw error;
  }
  const [row] = await db
    .update(calls)
    .set({ providerCallSid: placed.sid, status: placed.status, updatedAt: new Date() })
    .where(eq(calls.id, callId))
    .returning();
  return toCall(row!);
}
