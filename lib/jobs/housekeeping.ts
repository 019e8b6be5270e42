import "server-only";
import type { Db } from "@/db";
import { getConfig } from "@/lib/config";
import { log } from "@/lib/log";
import { pruneFinishedJobs } from "@/lib/outbox/prune";
import { pruneExpiredAccountLinks } from "@/lib/services/accounts/expired-links";
import { expireUnconfirmedBookings } from "@/lib/services/bookings/expire";
import { expireUnpaidHolds } from "@/lib/services/bookings/checkout";
import { sendBrokenCalendarNotices } from "@/lib/services/calendars/broken-notices";

// What keeps the tables the same size as the years go by: finished outbox rows after
// OUTBOX_RETENTION_DAYS, expired account links. Run at start and every hour by every instance
// alike (each step is safe to run twice at once); a failure waits for the next hour.
// Beside it, more often, the sweep of booking requests left unconfirmed until their start
// (decisions §16): the guest should hear of it close to the time, not up to an hour later; and
// the reconnect emails of broken calendar connections (decisions §21), an hour after they broke
// and once more a day later.

const HOUR = 3_600_000;
// A paid booking's hold lasts PAYMENT_HOLD_MINUTES (15 by default): its end is found within a minute.
const REQUEST_SWEEP_MS = 60_000;

/** One round of housekeeping at `now`; what it removed (and the requests it cancelled). */
export async function runHousekeeping(
  db: Db,
  now: number = Date.now(),
): Promise<{ outboxJobs: number; accountLinks: number; expiredRequests: number; brokenCalendarNotices: number }> {
  const outboxJobs = await pruneFinishedJobs(db, { now, retentionDays: getConfig().outboxRetentionDays });
  const accountLinks = await pruneExpiredAccountLinks(db, now);
  const expiredRequests = await sweepUnconfirmedRequests(db, now);
  const brokenCalendarNotices = await sweepBrokenCalendars(db, now);
  if (outboxJobs + accountLinks > 0) log.info({ outboxJobs, accountLinks }, "housekeeping: pruned");
  return { outboxJobs, accountLinks, expiredRequests, brokenCalendarNotices };
}

/** Cancels (cancelledBy system) the pending bookings whose start has come; how many. */
export async function sweepUnconfirmedRequests(db: Db, now: number = Date.now()): Promise<number> {
  const expired = await expireUnconfirmedBookings(db, now);
  if (expired > 0) log.info({ expired }, "housekeeping: cancelled requests left unconfirmed until their start");
  return expired;
}

/** Adds the reconnect emails due at `now` for broken calendar connections; how many. */
export async function sweepBrokenCalendars(db: Db, now: number = Date.now()): Promise<number> {
  const notices = await sendBrokenCalendarNotices(db, now);
  if (notices > 0) log.info({ notices }, "housekeeping: reconnect emails for broken calendar connections");
  return notices;
}

/** Ends the paid bookings' holds whose time ran out unpaid (decisions §20); how many. */
export async function sweepUnpaidHolds(db: Db, now: number = Date.now()): Promise<number> {
  const ended = await expireUnpaidHolds(db, now);
  if (ended > 0) log.info({ ended }, "housekeeping: released paid bookings' holds not paid in time");
  return ended;
}

export class HousekeepingLoop {
  private timers: NodeJS.Timeout[] = [];
  private current: Promise<unknown> | undefined;
  private sweeping: Promise<unknown> | undefined;

  constructor(
    private readonly db: Db,
    private readonly everyMs: number = HOUR,
    private readonly sweepEveryMs: number = REQUEST_SWEEP_MS,
    /** The loop's clock (tests step it; the sweeps themselves take `now`). */
    private readonly clock: () => number = Date.now,
  ) {}

  start(): void {
    const round = () => {
      this.current = runHousekeeping(this.db, this.clock()).catch((err: unknown) => log.warn({ err }, "housekeeping: a round failed"));
    };
    const sweep = () => {
      // One sweep at a time in this process; the cancels themselves are safe against other instances.
      this.sweeping ??= Promise.all([
        sweepUnconfirmedRequests(this.db, this.clock()).catch((err: unknown) => log.warn({ err }, "housekeeping: the request sweep failed")),
        sweepBrokenCalendars(this.db, this.clock()).catch((err: unknown) => log.warn({ err }, "housekeeping: the broken-calendar sweep failed")),
        sweepUnpaidHolds(this.db, this.clock()).catch((err: unknown) => log.warn({ err }, "housekeeping: the unpaid-hold sweep failed")),
      ]).finally(() => (this.sweeping = undefined));
    };
    round();
    this.timers = [setInterval(round, this.everyMs), setInterval(sweep, this.sweepEveryMs)];
    for (const timer of this.timers) timer.unref();
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await Promise.all([this.current, this.sweeping]);
  }
}
