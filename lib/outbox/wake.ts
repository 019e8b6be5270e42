import "server-only";
// A wake-up call for this process's job worker, kept apart from the worker itself so that the
// request path (writeForHost) can ring it without loading the handlers (mail, HTTP). The bell
// lives on globalThis: Next.js may load this module once per bundle.
const holder = globalThis as unknown as { __bookingJobWake?: () => void };

export function setJobWake(wake: (() => void) | undefined): void {
  holder.__bookingJobWake = wake;
}

/**
 * Jobs were just committed by this process: run them now rather than at the next poll. (On
 * PostgreSQL the commit's NOTIFY wakes every instance too; embedded PGlite has no other way.)
 */
export function wakeJobWorker(): void {
  holder.__bookingJobWake?.();
}
