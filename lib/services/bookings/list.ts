import "server-only";
import { and, asc, count, desc, eq, gt, gte, inArray, lt, lte, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { bookingHosts, bookings, eventTypes, hostBookingCounts, type BookingRow, type CustomQuestion, type UserRow } from "@/db/schema";
import { listBookingChanges, type BookingChangesPage } from "./changes";
import { guestMatches } from "./guest-search";
import { loadBookingPeople, type BookingPeople } from "./people";
import { toBooking, type BookingDto } from "@/lib/dto";
import type { BookingListQuery } from "@/lib/schemas/booking";
import { MAX_DURATION_MINUTES } from "@/lib/schemas/event-type";
import { dayOfDate, ZoneOffsets } from "@/lib/slots";
import { clampInstant } from "@/lib/time/instants";

type ListQuery = z.output<typeof BookingListQuery>;

/** What a list shows, before paging: its filters on the host's entries and on their bookings, and its order. */
type Selection = { onHostRow: (SQL | undefined)[]; onBooking: SQL[]; byStatus: SQL | undefined; startedSinceLongest: SQL; notEnded: SQL; descending: boolean };

function selectionOf(host: UserRow, query: Omit<ListQuery, "page" | "limit">, now: number): Selection {
  const zone = ZoneOffsets.of(host.timezone);
  // The edges of the host's days, kept inside the instants PostgreSQL reads (9999-12-31 in a zone
  // west of UTC ends in the year 10000).
  const edge = (day: number) => new Date(clampInstant(zone.instantAtOrAfter(day * 1440)));
  const byStatus = query.status ? inArray(bookingHosts.status, query.status) : undefined;
  // A booking not yet ended started less than the longest booking ago; one ended started before now.
  const startedSinceLongest = gt(bookingHosts.startTime, new Date(now - MAX_DURATION_MINUTES * 60_000));
  const notEnded = gt(bookings.endTime, new Date(now));
  const onHostRow: (SQL | undefined)[] = [eq(bookingHosts.userId, host.id), byStatus];
  if (query.from) onHostRow.push(gte(bookingHosts.startTime, edge(dayOfDate(query.from))));
  if (query.to) onHostRow.push(lt(bookingHosts.startTime, edge(dayOfDate(query.to) + 1)));
  if (query.when === "upcoming") onHostRow.push(startedSinceLongest);
  if (query.when === "past") onHostRow.push(lt(bookingHosts.startTime, new Date(now)));
  const onBooking: SQL[] = [];
  if (query.noShow !== undefined) onBooking.push(eq(bookings.noShow, query.noShow));
  if (query.eventTypeId) onBooking.push(eq(bookings.eventTypeId, query.eventTypeId));
  if (query.q) onBooking.push(guestMatches(query.q));
  if (query.when === "upcoming") onBooking.push(notEnded);
  if (query.when === "past") onBooking.push(lte(bookings.endTime, new Date(now)));
  return { onHostRow, onBooking, byStatus, startedSinceLongest, notEnded, descending: query.when === "past" };
}

/**
 * The host's entries, and what their bookings must be, each read by its key: a scalar subquery,
 * which the planner keeps as such. A join (or EXISTS, which it makes a join) it would plan from
 * its guess of how many entries the host has in the range: for a host with a long past it
 * guesses many, and hashes every booking of everyone that matches (all bookings not yet ended).
 */
function entries(onHost: (SQL | undefined)[], ofBooking: SQL[]): SQL | undefined {
  return and(...onHost, ofBooking.length === 0 ? undefined : sql`(select true from ${bookings} where ${bookings.id} = ${bookingHosts.bookingId} and ${and(...ofBooking)})`);
}

/**
 * GET /me/bookings: a page of the host's bookings by number (listBookingPage), or with
 * updatedSince or a cursor a step of the walk of the host's changes (changes.ts).
 */
export async function listBookings(db: Db, host: UserRow, query: ListQuery, now: number = Date.now()): Promise<BookingPage | BookingChangesPage> {
  // With updatedSince or a cursor, the list is a walk of changes instead (changes.ts); the
  // schema has refused the filters and page beside them.
  if (query.updatedSince !== undefined || query.cursor !== undefined) return listBookingChanges(db, host, query);
  return listBookingPage(db, host, query, now);
}

/** A booking of the list with what a row of the CSV export shows of it. */
export type ListedBooking = { booking: BookingRow; eventType: { id: string; title: string; customQuestions: CustomQuestion[] }; people: BookingPeople };

/**
 * Every booking of the list's filters (not its page), in its order, `size` at a time (the CSV
 * export, GET /me/bookings?format=csv): each step starts after the last entry of the one before
 * (keyset) on the host's index of booking_hosts, so the 100th step costs what the first did and
 * no more than a step is held. Each step is its own read: a booking moved meanwhile may be met
 * twice or not at all, as in any paged reading of a list that changes.
 */
export async function* walkListedBookings(db: Db, host: UserRow, query: Omit<ListQuery, "page" | "limit">, size: number, now: number = Date.now()): AsyncGenerator<ListedBooking[]> {
  const { onHostRow, onBooking, descending } = selectionOf(host, query, now);
  const order = descending ? [desc(bookingHosts.startTime), desc(bookingHosts.bookingId)] : [asc(bookingHosts.startTime), asc(bookingHosts.bookingId)];
  let after: SQL | undefined;
  for (;;) {
    const ids = await db.select({ id: bookingHosts.bookingId, startTime: bookingHosts.startTime }).from(bookingHosts).where(entries([...onHostRow, after], onBooking)).orderBy(...order).limit(size);
    if (ids.length === 0) return;
    const found = await db
      .select({ booking: bookings, eventType: { id: eventTypes.id, title: eventTypes.title, customQuestions: eventTypes.customQuestions } })
      .from(bookings)
      .innerJoin(eventTypes, eq(eventTypes.id, bookings.eventTypeId))
      .where(inArray(bookings.id, ids.map((r) => r.id)));
    const people = await loadBookingPeople(db, found.map((r) => r.booking.id));
    const byId = new Map(found.map((r) => [r.booking.id, r]));
    yield ids.flatMap(({ id }) => {
      const row = byId.get(id);
      return row ? [{ ...row, people: people.get(id) ?? { hosts: [], team: null } }] : []; // deleted a moment ago
    });
    if (ids.length < size) return;
    const last = ids[ids.length - 1]!;
    const at = sql`(${last.startTime.toISOString()}::timestamptz, ${last.id}::text)`;
    after = descending ? sql`(${bookingHosts.startTime}, ${bookingHosts.bookingId}) < ${at}` : sql`(${bookingHosts.startTime}, ${bookingHosts.bookingId}) > ${at}`;
  }
}

export type BookingPage = { data: BookingDto[]; pagination: { page: number; limit: number; total: number } };

/**
 * A page of GET /me/bookings: the bookings the host hosts (personal and team), by start time;
 * from/to are dates in the host's zone; q finds a guest by a part of their name or email.
 *
 * The host's rows of booking_hosts carry each booking's start, indexed by (host, start, booking):
 * the list is read in that index's order, so its cost does not grow with the host's past. The
 * contract pages by number (page, limit, total), so a deep page still skips entries: with no
 * filter on the bookings themselves (the list as first shown, or a date range) the page's ids
 * come from the index alone (an index-only scan skips page 500's 10,000 entries in a few
 * milliseconds), and only the page's own bookings are read. The status is kept beside each entry
 * too; filters on a booking's event type, no-show or end walk the same index and read each
 * candidate booking by its key. `upcoming` walks only the entries that started less than the
 * longest booking ago (MAX_DURATION_MINUTES), `past` only those that started before now.
 *
 * The total stays exact (the dashboard shows "page x of y") but no longer counts the host's whole
 * history on every request (docs/product.md "The bookings list"):
 * - no filter but status: the sum of the host's counters (host_booking_counts, kept by triggers
 *   on booking_hosts in the writing transaction, migration 0020), at most three rows;
 * - `upcoming` (with or without status): counted, but only among the bookings not yet ended (the
 *   bounded walk above), however long the past;
 * - `past` (with or without status): the counters less that upcoming count, in one statement;
 * - from/to, eventTypeId, noShow or q (a guest's name or email): counted as before, among what
 *   the host asked to see (a date range, an event type's bookings, the no-shows, a guest's
 *   bookings): bounded by the question, not by the history (a search alone reads each entry's
 *   booking by its key, as the event-type filter does).
 */
export async function listBookingPage(db: Db, host: UserRow, query: ListQuery, now: number = Date.now()): Promise<BookingPage> {
  const pageNo = query.page ?? 1;
  const { onHostRow, onBooking, byStatus, startedSinceLongest, notEnded, descending } = selectionOf(host, query, now);
  const order = descending ? [desc(bookingHosts.startTime), desc(bookingHosts.bookingId)] : [asc(bookingHosts.startTime), asc(bookingHosts.bookingId)];
  const offset = (pageNo - 1) * query.limit;
  const counted = (where: SQL | undefined) => db.select({ total: count() }).from(bookingHosts).where(where);

  // The total, exact, by the cheapest way the filters allow (see above).
  const byCounters = !query.from && !query.to && !query.eventTypeId && query.noShow === undefined && !query.q;
  const counters = (value: SQL) =>
    db
      .select({ total: value.mapWith(Number) })
      .from(hostBookingCounts)
      .where(and(eq(hostBookingCounts.userId, host.id), query.status ? inArray(hostBookingCounts.status, query.status) : undefined));
  const summed = sql`coalesce(sum(${hostBookingCounts.n}), 0)`;
  let total: Promise<{ total: number }[]>;
  if (byCounters && query.when === undefined) total = counters(summed);
  else if (byCounters && query.when === "past") {
    // Less the upcoming ones of the same statuses, counted in the same statement (one snapshot).
    total = counters(sql`${summed} - (${counted(entries([eq(bookingHosts.userId, host.id), byStatus, startedSinceLongest], [notEnded]))})`);
  } else total = counted(entries(onHostRow, onBooking));

  // The page's entries in the index's order, then their bookings by key.
  const page = async () => {
    const ids = await db.select({ id: bookingHosts.bookingId }).from(bookingHosts).where(entries(onHostRow, onBooking)).orderBy(...order).limit(query.limit).offset(offset);
    if (ids.length === 0) return [];
    const found = await db
      .select({ booking: bookings, eventType: { id: eventTypes.id, title: eventTypes.title } })
      .from(bookings)
      .innerJoin(eventTypes, eq(eventTypes.id, bookings.eventTypeId))
      .where(inArray(bookings.id, ids.map((r) => r.id)));
    const byId = new Map(found.map((r) => [r.booking.id, r]));
    return ids.map((r) => byId.get(r.id)!).filter(Boolean);
  };
  const [rows, [answer]] = await Promise.all([page(), total]);
  const people = await loadBookingPeople(db, rows.map((r) => r.booking.id));
  return {
    data: rows.map((r) => toBooking(r.booking, r.eventType, people.get(r.booking.id)!)),
    pagination: { page: pageNo, limit: query.limit, total: answer?.total ?? 0 },
  };
}

/**
 * Where a booking of the host stands in a list (the same filters and order as listBookings): how
 * many entries come before it, or undefined when the list does not show it. The dashboard opens a
 * booking an email links to on its own page of its own view.
 */
export async function positionInList(db: Db, host: UserRow, bookingId: string, query: Omit<ListQuery, "page" | "limit">, now: number = Date.now()): Promise<number | undefined> {
  const { onHostRow, onBooking, descending } = selectionOf(host, query, now);
  const [own] = await db
    .select({ startTime: bookingHosts.startTime })
    .from(bookingHosts)
    .where(entries([...onHostRow, eq(bookingHosts.bookingId, bookingId)], onBooking));
  if (!own) return undefined;
  const at = sql`(${own.startTime.toISOString()}::timestamptz, ${bookingId}::text)`;
  const ahead = descending ? sql`(${bookingHosts.startTime}, ${bookingHosts.bookingId}) > ${at}` : sql`(${bookingHosts.startTime}, ${bookingHosts.bookingId}) < ${at}`;
  const [row] = await db.select({ n: count() }).from(bookingHosts).where(entries([...onHostRow, ahead], onBooking));
  return row?.n ?? 0;
}
