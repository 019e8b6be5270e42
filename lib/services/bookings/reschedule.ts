import "server-only";
import { eq } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { bookingHosts, bookings, eventTypes, users, type BookingRow, type EventTypeRow, type UserRow } from "@/db/schema";
import { toBooking, type BookingDto } from "@/lib/dto";
import { notFound } from "@/lib/errors";
import { isoUtc } from "@/lib/time/instants";
import { assertMovable, getBookingForHostOrThrow, hashCancelToken, overlapAsConflict, slotUnavailable } from "./store";
import { messagesOf } from "@/lib/i18n/catalogs";
import { andList, fill } from "@/lib/i18n/fill";
import { asLocale } from "@/lib/i18n/locales";
import { guestWhen } from "./cancel";
import { writeForHosts } from "@/lib/services/host-time/writes";
import { enqueueBookingEvent } from "@/lib/outbox/booking-events";
import { loadHostSchedules } from "@/lib/services/host-time/load";
import { activeHostsOf } from "@/lib/services/teams/hosts";
import { assignHosts, hostsFreeAt, loadRoundRobinStats, spanAround } from "./assign";
import { loadPeopleOf } from "./people";
import { refuseIfCalendarsBusy } from "./calendar-check";
import { bookingTimes } from "./row";
import { seatKeyOf } from "@/lib/services/host-time/load";
import { GUEST, hostActor, recordHistory, type Actor } from "./history";

/** Who moves a booking: a host (by id) or the guest. */
type Mover = Extract<Actor, { actor: "host" | "guest" }>;

/** Who may host a booking's move: its hosts now, and for round robin the event type's hosts too. */
type MovePlan = { eventType: EventTypeRow; current: UserRow[]; candidates: UserRow[] };

async function planMove(db: Db | Tx, booking: BookingRow): Promise<MovePlan> {
  const [[eventType], hosting] = await Promise.all([
    db.select().from(eventTypes).where(eq(eventTypes.id, booking.eventTypeId)),
    db.select({ user: users }).from(bookingHosts).innerJoin(users, eq(users.id, bookingHosts.userId)).where(eq(bookingHosts.bookingId, booking.id)),
  ]);
  // The booking's own host first, as it was booked.
  const current = hosting.map((h) => h.user).sort((a, b) => Number(b.id === booking.hostId) - Number(a.id === booking.hostId));
  if (eventType!.schedulingType !== "round_robin") return { eventType: eventType!, current, candidates: current };
  const pool = await activeHostsOf(db, eventType!);
  const candidates = [...current, ...pool.filter((h) => !current.some((c) => c.id === h.id))];
  return { eventType: eventType!, current, candidates };
}

const hostRef = (h: UserRow) => ({ userId: h.id, username: h.username, fullName: h.fullName });

/**
 * Moves an upcoming booking to a new start that is an offered slot when the booking itself is
 * ignored: same id, same status (a pending request stays one: moving it is no approval),
 * previousStartTime kept, booking.rescheduled in the outbox.
 * A round-robin booking keeps its host when they are free at the new start, else goes to the
 * host the rule picks among the type's hosts free then; a collective one needs every host free
 * (decisions §15). Runs inside the hosts' booking locks; the exclusion constraint still guards the move.
 */
async function moveBooking(tx: Tx, booking: BookingRow, plan: MovePlan, start: number, now: number, by: Mover): Promise<BookingDto> {
  assertMovable(booking, now);
  const { eventType, current, candidates } = plan;
  const roundRobin = eventType.schedulingType === "round_robin";
  // An occurrence of a series keeps the series' host (decisions §19).
  const pool = roundRobin && booking.seriesId === null ? candidates : current;
  const [schedules, stats] = await Promise.all([
    loadHostSchedules(tx, pool, spanAround(start, booking.id), eventType),
    roundRobin ? loadRoundRobinStats(tx, eventType.id, pool.map((h) => h.id), start, booking.id) : undefined,
  ]);
  const assigned = assignHosts(eventType, pool, hostsFreeAt(pool, eventType, schedules, start, now), stats, booking.hostId);
  if (!assigned) throw slotUnavailable();
  const hosts = [assigned.primary, ...assigned.coHosts];
  const former = current.filter((c) => !hosts.some((h) => h.id === c.id));

  const [row] = await tx
    .update(bookings)
    .set({
      hostId: assigned.primary.id,
      ...bookingTimes(eventType, start),
      // A seat moves to a seat of its new start (decisions §19).
      seatKey: eventType.seats ? seatKeyOf(eventType.id, start) : null,
      previousStartTime: booking.startTime,
      // The calendar invitation's SEQUENCE: the moved event replaces the one calendars hold.
      sequence: booking.sequence + 1,
    })
    .where(eq(bookings.id, booking.id))
    .returning()
    .catch((error: unknown) => {
      throw overlapAsConflict(error);
    });
  const team = eventType.teamId ? (await loadPeopleOf(tx, booking.id)).team : null;
  const people = { hosts: hosts.map(hostRef), team };
  await recordHistory(tx, booking.id, "rescheduled", by, now, { from: isoUtc(booking.startTime), to: isoUtc(row!.startTime) });
  await enqueueBookingEvent(tx, "booking.rescheduled", row!, { hostIds: hosts.map((h) => h.id), formerHostIds: former.map((h) => h.id) }, now, {
    bookingId: booking.id,
    rescheduledBy: by.actor,
    previousStartTime: isoUtc(booking.startTime),
    previousEndTime: isoUtc(booking.endTime),
    startTime: isoUtc(row!.startTime),
    endTime: isoUtc(row!.endTime),
    ...people,
    ...(former.length > 0 ? { previousHosts: current.map(hostRef) } : {}),
  });
  return toBooking(row!, eventType, people);
}

/**
 * The booking's move under the locks of everyone who may host it, read again under them. Another
 * move may have given it to a host outside those locks meanwhile: then the transaction ends
 * without a write and the move runs again under the locks of the hosts it found (every change of
 * a booking holds all its hosts' locks: write-booking.ts).
 */
async function moveUnderLocks(db: Db, booking: BookingRow, start: number, now: number, by: Mover): Promise<BookingDto> {
  assertMovable(booking, now);
  const plan = await planMove(db, booking);
  const roundRobin = plan.eventType.schedulingType === "round_robin";
  // The same check at booking as a new booking's, before the locks (decisions §17).
  await refuseIfCalendarsBusy(db, { eventType: plan.eventType, hostIds: (roundRobin ? plan.candidates : plan.current).map((h) => h.id), start, now });
  let hostIds = plan.candidates.map((h) => h.id);
  for (let attempt = 1; ; attempt++) {
    const locked = new Set(hostIds);
    const done = await writeForHosts(
      db,
      hostIds,
      async (tx) => {
        // Read again under the locks: a cancel or another move may have come first.
        const [fresh] = await tx.select().from(bookings).where(eq(bookings.id, booking.id)).for("update");
        if (!fresh) throw notFound("Booking");
        // Another move may have changed its hosts meanwhile: plan again from what is true now.
        const replanned = fresh.hostId === booking.hostId ? plan : await planMove(tx, fresh);
        const unlocked = replanned.candidates.filter((h) => !locked.has(h.id)).map((h) => h.id);
        if (unlocked.length > 0) return { done: false as const, again: unlocked };
        return { done: true as const, moved: await moveBooking(tx, fresh, replanned, start, now, by) };
      },
      { lockBookings: true },
    );
    if (done.done) return done.moved;
    if (attempt >= 5) throw new Error(`booking ${booking.id}: its hosts kept changing while being locked`);
    hostIds = [...hostIds, ...done.again];
  }
}

/** POST /me/bookings/{id}/reschedule: a host (any host of a team booking) moves an upcoming booking. */
export async function rescheduleBooking(db: Db, host: UserRow, bookingId: string, start: number, now: number): Promise<BookingDto> {
  const { booking } = await getBookingForHostOrThrow(db, host, bookingId);
  return moveUnderLocks(db, booking, start, now, hostActor(host));
}

export type GuestRescheduled = { id: string; status: "pending" | "confirmed"; startTime: string; endTime: string; previousStartTime: string; message: string };

/**
 * POST /public/reschedule: the guest moves their booking with the token of their links, under
 * the same guarantees as a host's move. Unknown token: 404.
 */
export async function rescheduleBookingAsGuest(db: Db, token: string, start: number, now: number): Promise<GuestRescheduled> {
  const [found] = await db.select({ booking: bookings }).from(bookings).where(eq(bookings.cancelTokenHash, hashCancelToken(token))).limit(1);
  if (!found) throw notFound("Booking");
  const moved = await moveUnderLocks(db, found.booking, start, now, GUEST);
  const row = { ...found.booking, startTime: new Date(moved.startTime) };
  return {
    id: moved.id,
    status: moved.status === "pending" ? "pending" : "confirmed",
    startTime: moved.startTime,
    endTime: moved.endTime,
    previousStartTime: moved.previousStartTime!,
    message: fill(messagesOf(asLocale(row.guestLanguage)).mail.movedMessage, {
      title: moved.eventType.title,
      host: andList(asLocale(row.guestLanguage), moved.hosts.map((h) => h.fullName)),
      when: `${guestWhen(row)} (${row.guestTimezone})`,
    }),
  };
}
