import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db";
import { eventTypes, users } from "@/db/schema";
import { addDays, instantOfWall } from "@/lib/time/format";
import { periodsOf, todayIn } from "./store";

// What a personal host's public pages say of their time off (decisions §21): while the host is
// away, or when time off starts within the next AWAY_NOTICE_DAYS, one line "Away until {the last
// day away}" with the host's note and, with a colleague, a link to the colleague's page for the
// same event (their page when they have no active event type of that slug). Team pages say
// nothing of one host's time off.

export const AWAY_NOTICE_DAYS = 14;

export type AwayNotice = {
  /** The first and last day away (YYYY-MM-DD, the host's dates, inclusive). */
  startDate: string;
  endDate: string;
  /** Whether the host is away today (else the time off starts within AWAY_NOTICE_DAYS). */
  awayNow: boolean;
  note: string | null;
  colleague: { name: string; href: string } | null;
};

export type AwayAnswer = {
  notice: AwayNotice | null;
  /** The ids whose change retires a page showing this (the colleague's, whose event types the link depends on). */
  deps: string[];
  /** When the answer could change with the clock alone: the host's next midnight while any time off lies ahead; else never. */
  validUntil: number;
};

export async function awayNoticeOf(db: Db, host: { id: string; timezone: string }, slug: string | null, now = Date.now()): Promise<AwayAnswer> {
  const today = todayIn(host.timezone, now);
  const periods = await periodsOf(db, host.id, today);
  const validUntil = periods.length > 0 ? instantOfWall(addDays(today, 1), "00:00", host.timezone) : Infinity;
  const period = periods.find((p) => p.startDate <= addDays(today, AWAY_NOTICE_DAYS));
  if (!period) return { notice: null, deps: [], validUntil };
  const notice: AwayNotice = { startDate: period.startDate, endDate: period.endDate, awayNow: period.startDate <= today, note: period.note, colleague: null };
  if (!period.redirectUsername || !period.redirectFullName) return { notice, deps: [], validUntil };
  const username = period.redirectUsername;
  let href = `/${username}`;
  const [found] = await db
    .select({ id: users.id, sameSlug: eventTypes.id })
    .from(users)
    // The colleague's own personal event type of this slug, switched on.
    .leftJoin(eventTypes, and(eq(eventTypes.userId, users.id), eq(eventTypes.slug, slug ?? ""), eq(eventTypes.isActive, true), isNull(eventTypes.teamId)))
    .where(eq(users.username, username))
    .limit(1);
  if (slug !== null && found?.sameSlug) href = `/${username}/${slug}`;
  const deps = found ? [found.id] : [];
  return { notice: { ...notice, colleague: { name: period.redirectFullName, href } }, deps, validUntil };
}
