// The bookings page's rows (decisions §19): the seats of one start are one row (a group session
// with its guests), any other booking a row of its own; grouped over the page the API gave, so
// the API's paging stays as it is. And a series occurrence's place in its series, in words.

type Groupable = {
  id: string;
  startTime: string;
  eventType: { id: string };
  seat?: { taken: number; max: number } | null;
};

export type BookingRow<B extends Groupable> =
  | { kind: "single"; booking: B }
  | {
      kind: "seats";
      key: string;
      bookings: B[];
      seat: { taken: number; max: number };
    };

/** The page's bookings as rows, in the page's order: a start's seats where its first seat is. */
export function bookingRows<B extends Groupable>(
  bookings: B[],
): BookingRow<B>[] {
  const rows: BookingRow<B>[] = [];
  const seats = new Map<string, Extract<BookingRow<B>, { kind: "seats" }>>();
  for (const booking of bookings) {
    if (!booking.seat) {
      rows.push({ kind: "single", booking });
      continue;
    }
    // A start's seats share the event type and the start (its seat key).
    const key = `${booking.eventType.id}@${booking.startTime}`;
    const row = seats.get(key);
    if (row) {
      row.bookings.push(booking);
      // The latest count the page has (the seats are read in one answer: the same).
      row.seat = {
        taken: Math.max(row.seat.taken, booking.seat.taken),
        max: booking.seat.max,
      };
    } else {
      const created = {
        kind: "seats" as const,
        key,
        bookings: [booking],
        seat: booking.seat,
      };
      seats.set(key, created);
      rows.push(created);
    }
  }
  return rows;
}

/** "3 of 10 seats" */
export const seatWords = (seat: { taken: number; max: number }): string =>
  `${seat.taken} of ${seat.max} seats`;

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

type Series = { occurrences: { id: string; startTime: string }[] };

/**
 * "Weekly · 2 of 4", "Every 2 weeks · 1 of 6": how often (from the first two occurrences, whole
 * weeks across daylight-saving changes) and which occurrence this one is; undefined outside a series.
 */
export function seriesWords(
  bookingId: string,
  series: Series | null | undefined,
): string | undefined {
  if (!series || series.occurrences.length === 0) return undefined;
  const index = series.occurrences.findIndex((o) => o.id === bookingId);
  const [first, second] = series.occurrences;
  const weeks =
    first && second
      ? Math.round(
          (Date.parse(second.startTime) - Date.parse(first.startTime)) /
            WEEK_MS,
        )
      : 1;
  const often = weeks <= 1 ? "Weekly" : `Every ${weeks} weeks`;
  return index === -1
    ? `${often} · ${series.occurrences.length} sessions`
    : `${often} · ${index + 1} of ${series.occurrences.length}`;
}
