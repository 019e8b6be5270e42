import "server-only";
import { and, asc, eq, inArray, isNotNull, lte, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db";
import { calendarConnections, calendars, users, type CalendarConnectionRow, type UserRow } from "@/db/schema";
import { BROKEN_CALENDAR_EMAIL } from "@/lib/outbox/kinds";
import { enqueueJobs } from "@/lib/outbox/enqueue";
import type { BrokenCalendarJob } from "@/lib/outbox/payloads";

// A broken calendar is never silent (decisions §21). A connection in `error` or
// `reauth_required` (its `broken_since` kept by a trigger, migration 0029) gets one email to its
// host after an hour, a second 24 hours after the first if it is still broken, and never a third.
// Fixed (connected again), the trigger forgets the breakage and its count, so a later breakage
// starts over. The claim is an UPDATE … WHERE broken_notices = n: PostgreSQL re-checks the
// condition under the row lock, so of two instances sweeping at once only one moves a row, and
// its transaction adds the email job too (lib/outbox), so a claim and its email commit together.

const HOUR = 3_600_000;
/** How long a connection is broken before its host hears of it: a passing outage says nothing. */
export const FIRST_NOTICE_AFTER_MS = HOUR;
/** How long after the first the second (and last) goes, if still broken. */
export const SECOND_NOTICE_AFTER_MS = 24 * HOUR;

/**
 * Claims the connections whose host is due a reconnect email at `now` and adds those emails to
 * the outbox in the same transaction; how many were claimed. Safe to run on every instance at once.
 */
export async function sendBrokenCalendarNotices(db: Db, now: number): Promise<number> {
  const due = (notices: number, since: SQL) =>
    and(ne(calendarConnections.status, "connected"), isNotNull(calendarConnections.brokenSince), eq(calendarConnections.brokenNotices, notices), since);
  return db.transaction(async (tx) => {
    const claimed = await tx
      .update(calendarConnections)
      .set({ brokenNotices: sql`${calendarConnections.brokenNotices} + 1`, brokenNotifiedAt: new Date(now) })
      .where(
        or(
          due(0, lte(calendarConnections.brokenSince, new Date(now - FIRST_NOTICE_AFTER_MS))),
          due(1, lte(calendarConnections.brokenNotifiedAt, new Date(now - SECOND_NOTICE_AFTER_MS))),
        ),
      )
      .returning({ id: calendarConnections.id, notices: calendarConnections.brokenNotices, brokenSince: calendarConnections.brokenSince });
    await enqueueJobs(
      tx,
      claimed.map((c) => {
        const payload: BrokenCalendarJob = { connectionId: c.id, notice: c.notices, brokenSince: c.brokenSince!.toISOString() };
        return { kind: BROKEN_CALENDAR_EMAIL, payload, dedupeKey: `calendar-broken:${c.id}:${payload.brokenSince}:${c.notices}` };
      }),
      now,
    );
    return claimed.length;
  });
}

/** What a reconnect email says: the connection, its calendars' names, its host. */
export type BrokenCalendarFacts = { connection: CalendarConnectionRow; host: UserRow; calendarName: string };

/**
 * The facts of a reconnect email at the time it goes, or undefined when it should not go: the
 * connection was removed, is connected again, or broke again since (another breakage, counted
 * on its own).
 */
export async function brokenNoticeToSend(db: Db, job: BrokenCalendarJob): Promise<BrokenCalendarFacts | undefined> {
  const [row] = await db
    .select({ connection: calendarConnections, host: users })
    .from(calendarConnections)
    .innerJoin(users, eq(users.id, calendarConnections.userId))
    .where(and(eq(calendarConnections.id, job.connectionId), ne(calendarConnections.status, "connected")))
    .limit(1);
  if (!row || row.connection.brokenSince?.getTime() !== Date.parse(job.brokenSince)) return undefined;
  return { ...row, calendarName: (await calendarNamesOf(db, [row.connection]))[0]! };
}

/**
 * What people call each connection: its primary calendar's name (else its first calendar's, else
 * the account's address), e.g. "Work" in "Your Work calendar (Apple iCloud)".
 */
export async function calendarNamesOf(db: Db, connections: Pick<CalendarConnectionRow, "id" | "email">[]): Promise<string[]> {
  if (connections.length === 0) return [];
  const rows = await db
    .select({ connectionId: calendars.connectionId, name: calendars.name, isPrimary: calendars.isPrimary })
    .from(calendars)
    .where(inArray(calendars.connectionId, connections.map((c) => c.id)))
    .orderBy(asc(calendars.name), asc(calendars.id));
  return connections.map((c) => {
    const own = rows.filter((r) => r.connectionId === c.id);
    return (own.find((r) => r.isPrimary) ?? own[0])?.name ?? c.email;
  });
}
