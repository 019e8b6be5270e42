import "server-only";
import type { Db } from "@/db";
import { log } from "@/lib/log";
import { claimDueConnections, syncConnection } from "@/lib/services/calendars/sync";
import { createMissingPushChannels, renewExpiringPushChannels } from "@/lib/services/calendars/push";

// The background busy-time refresh: every few seconds, take the connections whose sync is due
// (a lease in the table, so instances sharing a PostgreSQL split them) and read them again.
// A provider that hangs holds only its own sync, bounded by CALENDAR_TIMEOUT_MS per request;
// slot lists never wait for any of this.

export type CalendarSyncLoopOptions = { db: Db; pollMs?: number; batch?: number; clock?: () => number; pushEveryMs?: number };

/** How often the push channels are looked after (renewed, created where missing): hours of margin make minutes plenty. */
const PUSH_EVERY_MS = 5 * 60_000;

export class CalendarSyncLoop {
  private readonly db: Db;
  private readonly pollMs: number;
  private readonly batch: number;
  private readonly clock: () => number;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private readonly pushEveryMs: number;
  private pushDueAt = 0;
  private woken = false;

  constructor(options: CalendarSyncLoopOptions) {
    this.db = options.db;
    this.pollMs = options.pollMs ?? 15_000;
    this.batch = options.batch ?? 4;
    this.clock = options.clock ?? Date.now;
    this.pushEveryMs = options.pushEveryMs ?? PUSH_EVERY_MS;
  }

  /**
   * Push channels (decisions §17): renews those expiring soon and creates the missing ones.
   * Each step claims its rows, so instances sharing a PostgreSQL split the work.
   */
  async maintainPush(now: number = this.clock()): Promise<{ renewed: number; created: number }> {
    const renewed = await renewExpiringPushChannels(this.db, now);
    const created = await createMissingPushChannels(this.db, now);
    return { renewed, created };
  }

  /**
   * A push notification made a connection due: sync it now rather than at the next poll. A round
   * under way finishes first; the next one starts right after it.
   */
  wake(): void {
    if (!this.running) return;
    if (this.current) {
      this.woken = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(this.tick, 0);
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

  private readonly tick = () => {
    this.woken = false;
    this.current = this.runDue()
      .then(() => undefined)
      .catch((err: unknown) => log.warn({ err }, "calendar sync: could not claim connections"))
      .then(() => this.pushRound())
      .finally(() => {
        this.current = undefined;
        if (this.running) this.timer = setTimeout(this.tick, this.woken ? 0 : this.pollMs);
      });
  };

  private async pushRound(): Promise<void> {
    const now = this.clock();
    if (now < this.pushDueAt) return;
    this.pushDueAt = now + this.pushEveryMs;
    await this.maintainPush(now).catch((err: unknown) => log.warn({ err }, "calendar push: a round of channel upkeep failed"));
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.timer = setTimeout(this.tick, 0);
  }

  /** Stops taking connections; resolves once the syncs in hand are done. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.current;
  }
}
