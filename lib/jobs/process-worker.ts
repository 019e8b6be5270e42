import "server-only";
import type { Database } from "@/db";
import { onShutdown, requestLoad, shutdownTimeLeft } from "@/lib/lifecycle";
import { log } from "@/lib/log";
import { CalendarSyncLoop } from "./calendar-sync-loop";
import { defaultJobHandlers } from "./handlers";
import { HousekeepingLoop } from "./housekeeping";
import { releaseOrphanedJobs } from "./queue";
import { setJobWake } from "@/lib/outbox/wake";
import { setCalendarSyncWake } from "@/lib/services/calendars/sync-wake";
import { JobWorker } from "./worker";

// The one worker of this process, started by lib/startup.ts (tests run workers of their own).
// Next.js may load this module in more than one bundle, so it lives on globalThis.
const holder = globalThis as unknown as { __bookingJobWorker?: JobWorker; __bookingCalendarSync?: CalendarSyncLoop; __bookingHousekeeping?: HousekeepingLoop };

/** Starts this process's worker once; later calls return the same one. */
export async function startJobWorker(database: Database): Promise<JobWorker> {
  if (holder.__bookingJobWorker) return holder.__bookingJobWorker;
  if (database.kind === "pglite") {
    // This process alone has the embedded database open: running jobs are a dead run's.
    const released = await releaseOrphanedJobs(database.db);
    if (released > 0) log.warn({ released }, "jobs: took back jobs a previous run left unfinished");
  }
  // In a process that also serves (`npm start`), the guests' requests go first (requestLoad is
  // never busy in `npm run worker`).
  const worker = new JobWorker({ db: database.db, messages: database.messages, handlers: defaultJobHandlers(), yieldTo: requestLoad });
  holder.__bookingJobWorker = worker;
  setJobWake(() => worker.wake());
  await worker.start();
  // Calendar busy times are refreshed in the background by every instance alike.
  const calendarSync = new CalendarSyncLoop({ db: database.db });
  holder.__bookingCalendarSync = calendarSync;
  calendarSync.start();
  // A push notification (decisions §17) makes its connection due and rings this loop.
  setCalendarSyncWake(() => calendarSync.wake());
  const housekeeping = new HousekeepingLoop(database.db);
  holder.__bookingHousekeeping = housekeeping;
  housekeeping.start();
  // On shutdown the worker stops claiming and finishes the jobs it holds, before the database closes.
  onShutdown("outbox worker", stopJobWorker);
  return worker;
}

export async function stopJobWorker(): Promise<void> {
  const worker = holder.__bookingJobWorker;
  const calendarSync = holder.__bookingCalendarSync;
  const housekeeping = holder.__bookingHousekeeping;
  holder.__bookingJobWorker = undefined;
  holder.__bookingCalendarSync = undefined;
  holder.__bookingHousekeeping = undefined;
  setJobWake(undefined);
  setCalendarSyncWake(undefined);
  // Before the process's deadline (server.mjs, SHUTDOWN_TIMEOUT_MS) the jobs in hand may finish;
  // a second before it, those still running are handed back for another worker to take at once.
  const left = shutdownTimeLeft();
  const graceMs = left === undefined ? undefined : Math.max(0, left - 1_000);
  await Promise.all([worker?.stop({ graceMs }), calendarSync?.stop(), housekeeping?.stop()]);
}
