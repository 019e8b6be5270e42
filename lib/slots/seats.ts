/** A half-open range of epoch milliseconds (the engine's Interval). */
type Interval = { start: number; end: number };

// Seats (decisions §19): a seated event type offers a start to up to `max` guests, each with a
// booking of their own. The event type's own seats of one start are not busy time for that start
// while a seat is free; for every other start they are (a start that overlaps another seated start
// is not offered: the host's time is blocked once, by the first seat). Pure like the engine.

/** The booked seats of one start of the event type: their blocked range (buffers included) and how many. */
export type SeatedStart = { start: number; blocked: Interval; taken: number; /** One of its bookings (what explain names). */ bookingId?: string };

/** A seated event type's capacity and the starts already holding seats (the other bookings stay in `busy`). */
export type SeatsInput = { max: number; starts: SeatedStart[] };

/** What the seats say of a start whose blocked range is [from, to). */
export type SeatVerdict =
  | { free: true; remaining: number }
  | { free: false; why: "full"; seated: SeatedStart }
  | { free: false; why: "overlap"; seated: SeatedStart };

export function seatVerdict(seats: SeatsInput, start: number, from: number, to: number): SeatVerdict {
  let own: SeatedStart | undefined;
  for (const seated of seats.starts) {
    if (!(seated.blocked.start < to && from < seated.blocked.end)) continue;
    if (seated.start !== start) return { free: false, why: "overlap", seated };
    own = seated;
  }
  if (own && own.taken >= seats.max) return { free: false, why: "full", seated: own };
  return { free: true, remaining: seats.max - (own?.taken ?? 0) };
}

/** Groups seat bookings (each its start and blocked range) by start. */
export function seatedStarts(seats: { start: number; blocked: Interval; bookingId?: string }[]): SeatedStart[] {
  const byStart = new Map<number, SeatedStart>();
  for (const { start, blocked, bookingId } of seats) {
    const seen = byStart.get(start);
    if (!seen) byStart.set(start, { start, blocked: { ...blocked }, taken: 1, ...(bookingId === undefined ? {} : { bookingId }) });
    else {
      seen.taken += 1;
      seen.blocked.start = Math.min(seen.blocked.start, blocked.start);
      seen.blocked.end = Math.max(seen.blocked.end, blocked.end);
    }
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}
