import "server-only";
import { randomUUID } from "node:crypto";
import type { Database, Db } from "@/db";
import type { RequestLoad } from "@/lib/lifecycle";
import { log } from "@/lib/log";
import { MAX_ATTEMPTS, retryDelayMs } from "./backoff";
import { enqueueJobs, JOBS_CHANNEL } from "@/lib/outbox/enqueue";
import { claimJobs, claimToken, releaseJobsOf, settleJob, settleJobAndEnqueue, type Settlement } from "./queue";
import type { ClaimedJob, JobHandler, JobOutcome, NewJob, RecordAttempt } from "./types";

// The outbox worker: claims due jobs of the kinds it has handlers for, runs up to `concurrency`
// of them at once, and settles each (done, retry after a backoff, failed). Delivery is at least
// once: a job is settled only after its work, so a crash in between runs it again — with the same
// ids inside, which is what receivers de-duplicate on.

export type WorkerOptions = {
  db: Db;
  handlers: JobHandler[];
  /** PostgreSQL LISTEN/NOTIFY: other instances' new jobs wake this one at once. */
  messages?: Database["messages"];
  /** How long a claim holds a job; longer than any handler may take (webhooks: 15 s). */
  leaseMs?: number;
  /** Jobs run at once. */
  concurrency?: number;
  /** The wait between looks at the table while jobs keep coming, when no wake-up comes. */
  pollMs?: number;
  /**
   * The longest wait between looks once the table keeps coming up empty: each empty look doubles
   * the wait from pollMs up to this. A wake-up (this process's commit with jobs, or another
   * instance's NOTIFY) looks at once and starts again from pollMs; what no one announces (a
   * retry's time coming, a dead worker's lease running out) waits at most this long more.
   */
  maxIdlePollMs?: number;
  /**
   * The HTTP requests of the process this worker shares (`npm start` doing both): while one is
   * being answered, the worker claims nothing new, so a burst of bookings gets the thread first
   * and its emails and webhooks follow in the gaps. Jobs in hand keep running. No claim waits
   * longer than maxYieldMs, so under traffic that never pauses the jobs still go, a batch at a
   * time. Unset (`npm run worker`, tests): the worker never waits.
   */
  yieldTo?: RequestLoad;
  /** The longest a claim waits for the requests to pause (default 1 s). */
  maxYieldMs?: number;
  clock?: () => number;
  /** Jitter source for retries (tests make it deterministic). */
  random?: () => number;
  id?: string;
};

export class JobWorker {
  readonly id: string;
  private readonly handlers: Map<string, JobHandler>;
  private readonly db: Db;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly maxIdlePollMs: number;
  private readonly clock: () => number;
  private readonly random: () => number;
  private readonly messages: Database["messages"];
  private readonly yieldTo: RequestLoad | undefined;
  private readonly maxYieldMs: number;
  private running = false;
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;

  constructor(options: WorkerOptions) {
    this.db = options.db;
    this.handlers = new Map(options.handlers.map((h) => [h.kind, h]));
    this.leaseMs = options.leaseMs ?? 60_000;
    this.concurrency = options.concurrency ?? 8;
    this.pollMs = options.pollMs ?? 500;
    this.maxIdlePollMs = Math.max(this.pollMs, options.maxIdlePollMs ?? 5_000);
    this.clock = options.clock ?? Date.now;
    this.random = options.random ?? Math.random;
    this.messages = options.messages;
    this.yieldTo = options.yieldTo;
    this.maxYieldMs = options.maxYieldMs ?? 1_000;
    this.id = options.id ?? randomUUID();
  }

  get kinds(): string[] {
    return [...this.handlers.keys()];
  }

  /**
   * Runs every job due at `now` (default: the clock at each claim), including the ones those
   * jobs add, until none is left; returns how many ran. The background loop calls it; tests call
   * it with a chosen `now` to step through hours of retries without waiting for them.
   */
  async runDueJobs(now?: number): Promise<number> {
    let ran = 0;
    const inFlight = new Set<Promise<void>>();
    for (;;) {
      const free = this.concurrency - inFlight.size;
      // A stopping worker claims nothing more: it finishes (or hands back) what it holds.
      const jobs = free > 0 && !this.stopping ? await this.claim(free, now) : [];
      for (const job of jobs) {
        const run: Promise<void> = this.execute(job, now).finally(() => inFlight.delete(run));
        inFlight.add(run);
        ran += 1;
      }
      if (inFlight.size === 0) return ran;
      // A slot is taken by every running job, or nothing more is due yet: wait for one to
      // finish (it may have added jobs: fan-out) and look again.
      if (jobs.length < free || inFlight.size >= this.concurrency) await Promise.race(inFlight);
    }
  }

  /** Starts the background loop: a look at the table every pollMs, or at once when woken. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    if (this.messages) {
      await this.messages.listen(JOBS_CHANNEL, () => this.wake()).catch((err: unknown) => {
        log.warn({ err }, "jobs: could not LISTEN; relying on polling");
      });
    }
    this.loop = this.run();
    log.info({ worker: this.id, kinds: this.kinds, pollMs: this.pollMs, maxIdlePollMs: this.maxIdlePollMs, leaseMs: this.leaseMs }, "jobs: worker started");
  }

  /**
   * Stops claiming; resolves once the jobs in hand are settled. With `graceMs`, jobs still running
   * after it are handed back to the queue (another worker takes them at once, not after their lease).
   */
  async stop(options: { graceMs?: number } = {}): Promise<void> {
    this.running = false;
    this.stopping = true;
    this.wake();
    if (options.graceMs === undefined || !this.loop) {
      await this.loop;
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      this.loop.then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, options.graceMs!)))),
    ]);
    clearTimeout(timer);
    if (finished) return;
    const released = await releaseJobsOf(this.db, this.id);
    log.warn({ worker: this.id, released, graceMs: options.graceMs }, "jobs: stopping; handed back the jobs still running");
  }

  /** New jobs may be due: look now instead of at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    let failures = 0;
    // Looks in a row that found nothing: on embedded PGlite each look runs on this thread (a few
    // milliseconds that every request in flight waits out), so an idle worker looks less often.
    let empty = 0;
    while (this.running) {
      this.woken = false;
      try {
        const ran = await this.runDueJobs();
        empty = ran > 0 ? 0 : empty + 1;
        failures = 0;
      } catch (err) {
        // The database went away, most likely: the jobs stay in the table. Look again, less
        // and less often (up to every 30 s) while it stays away.
        failures += 1;
        log.error({ err, failures }, "jobs: could not claim jobs");
      }
      if (!this.running || (this.woken && failures === 0)) continue;
      const wait = failures === 0 ? this.idleWait(empty) : Math.min(30_000, this.pollMs * 2 ** failures);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  /** pollMs after a look that ran jobs, doubling with each empty look in a row, up to maxIdlePollMs. */
  idleWait(emptyLooks: number): number {
    return Math.min(this.maxIdlePollMs, this.pollMs * 2 ** Math.max(0, emptyLooks - 1));
  }

  private async claim(limit: number, now: number | undefined): Promise<ClaimedJob[]> {
    if (this.yieldTo?.busy()) await this.yieldTo.idle(this.maxYieldMs);
    if (this.stopping) return [];
    return claimJobs(this.db, { kinds: this.kinds, limit, now: now ?? this.clock(), leaseMs: this.leaseMs, workerId: this.id });
  }

  private async execute(job: ClaimedJob, fixedNow: number | undefined): Promise<void> {
    const handler = this.handlers.get(job.kind)!;
    const timer = performance.now();
    const started = fixedNow ?? this.clock();
    let outcome: JobOutcome;
    try {
      outcome = await handler.run({ db: this.db, job, now: started });
    } catch (err) {
      // A handler's bug or a lost database: retried like any failure, and logged in full.
      log.error({ err, jobId: job.id, kind: job.kind, attempt: job.attempt }, "jobs: handler threw");
      outcome = { status: "retry", error: err instanceof Error ? err.message : String(err) };
    }
    const now = fixedNow ?? this.clock();
    const maxAttempts = handler.maxAttempts ?? MAX_ATTEMPTS;
    let settlement: Settlement;
    if (outcome.status === "done") settlement = { status: "done", now };
    else if (outcome.status === "defer") settlement = { status: "deferred", runAfter: Math.max(now, outcome.until), now };
    else if (outcome.status === "failed" || job.attempt >= maxAttempts) settlement = { status: "failed", error: outcome.error, now };
    else settlement = { status: "pending", runAfter: now + retryDelayMs(job.attempt, this.random), error: outcome.error, now };
    const nextRunAt = settlement.status === "pending" || settlement.status === "deferred" ? new Date(settlement.runAfter) : null;

    const enqueue = outcome.status === "done" || outcome.status === "defer" ? outcome.enqueue : undefined;
    const record = outcome.status === "defer" ? undefined : outcome.record;
    try {
      const held = await this.settle(job, settlement, { enqueue, record, nextRunAt, now });
      const fields = { jobId: job.id, kind: job.kind, attempt: job.attempt, status: settlement.status, ms: Math.round(performance.now() - timer) };
      if (!held) log.warn(fields, "jobs: lease lost before the job was settled; another worker has it");
      else if (settlement.status === "done") log.debug(fields, "jobs: done");
      else if (settlement.status === "deferred") log.debug({ ...fields, nextRunAt }, "jobs: deferred");
      else log.warn({ ...fields, error: "error" in settlement ? settlement.error : undefined, nextRunAt }, "jobs: attempt failed");
    } catch (err) {
      // Not settled: the lease runs out and the job is claimed again (at least once).
      log.error({ err, jobId: job.id, kind: job.kind }, "jobs: could not settle a job");
    }
  }

  /** Settles the job with what its run leaves behind; false when its lease was lost meanwhile. */
  private async settle(
    job: ClaimedJob,
    settlement: Settlement,
    { enqueue, record, nextRunAt, now }: { enqueue: NewJob[] | undefined; record: RecordAttempt | undefined; nextRunAt: Date | null; now: number },
  ): Promise<boolean> {
    const token = claimToken(this.id, job);
    if (record === undefined) {
      // Most jobs (emails, calendar writes) leave nothing behind but their own row: one statement
      // settles them, no transaction needed.
      if (!enqueue?.length) return settleJob(this.db, job.id, token, settlement);
      // A fan-out: one statement settles it and adds its jobs, if it still holds it.
      if (settlement.status === "done" || settlement.status === "deferred") return settleJobAndEnqueue(this.db, job.id, token, settlement, enqueue);
    }
    // An attempt recorded (a webhook delivery's): recorded and settled in one transaction.
    return this.db.transaction(async (tx) => {
      const ours = await settleJob(tx, job.id, token, settlement);
      // The attempt happened either way; its follow-ups are made only by the claim that
      // holds the job, so a job run twice (lease lost) fans out once.
      await record?.(tx, { nextRunAt: ours ? nextRunAt : null });
      if (ours && enqueue) await enqueueJobs(tx, enqueue, now);
      return ours;
    });
  }
}
