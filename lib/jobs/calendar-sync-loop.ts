import "server-only";
import type { Db } from "@/db";
import { log } from "@/lib/log";
import { claimDueConnections, syncConnection } from "@/lib/services/calendars/sync";

// The background busy-time refresh: every few seconds, take the connections whose sync is due
// (a lease in the table, so instances sharing a PostgreSQL split them) and read them again.
// A provider that hangs holds only its own sync, bounded by CALENDAR_TIMEOUT_MS per request;
// slot lists never wait for any of this.

export type CalendarSyncLoopOptions = { db: Db; pollMs?: number; batch?: number; clock?: () => number };

export class CalendarSyncLoop {
  private readonly db: Db;
  private readonly pollMs: number;
  private readonly batch: number;
  private readonly clock: () => number;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;

  constructor(options: CalendarSyncLoopOptions) {
    this.db = options.db;
    this.pollMs = options.pollMs ?? 15_000;
    this.batch = options.batch ?? 4;
    this.clock = options.clock ?? Date.now;
  }

  /** Syncs every connection due at `now`; returns how many were synced. */
  async runDue(now: number = this.clock()): Promise<number> {
    let total = 0;
    for (;;) {
      const ids = await claimDueConnections(this.db, now, this.batch);
      if (ids.length === 0) return total;
      total += ids.length;
      const results = await Promise.allSettled(ids.map((id) => syncConnection(this.db, id, now)));
      for (const r of results) if (r.status === "rejected") log.error({ err: r.reason }, "calendar sync: a sync failed to settle");
    }
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const tick = () => {
      this.current = this.runDue()
        .then(() => undefined)
        .catch((err: unknown) => log.warn({ err }, "calendar sync: could not claim connections"))
        .finally(() => {
          this.current = undefined;
          if (this.running) this.timer = setTimeout(tick, this.pollMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  /** Stops taking connections; resolves once the syncs in hand are done. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.current;
  }
}
