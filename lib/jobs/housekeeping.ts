import "server-only";
import type { Db } from "@/db";
import { getConfig } from "@/lib/config";
import { log } from "@/lib/log";
import { pruneFinishedJobs } from "@/lib/outbox/prune";
import { pruneExpiredAccountLinks } from "@/lib/services/accounts/expired-links";

// What keeps the tables the same size as the years go by: finished outbox rows after
// OUTBOX_RETENTION_DAYS, expired account links. Run at start and every hour by every instance
// alike (each step is safe to run twice at once); a failure waits for the next hour.

const HOUR = 3_600_000;

/** One round of housekeeping at `now`; what it removed. */
export async function runHousekeeping(db: Db, now: number = Date.now()): Promise<{ outboxJobs: number; accountLinks: number }> {
  const outboxJobs = await pruneFinishedJobs(db, { now, retentionDays: getConfig().outboxRetentionDays });
  const accountLinks = await pruneExpiredAccountLinks(db, now);
  if (outboxJobs + accountLinks > 0) log.info({ outboxJobs, accountLinks }, "housekeeping: pruned");
  return { outboxJobs, accountLinks };
}

export class HousekeepingLoop {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<unknown> | undefined;

  constructor(private readonly db: Db, private readonly everyMs: number = HOUR) {}

  start(): void {
    const round = () => {
      this.current = runHousekeeping(this.db).catch((err: unknown) => log.warn({ err }, "housekeeping: a round failed"));
    };
    round();
    this.timer = setInterval(round, this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.current;
  }
}
