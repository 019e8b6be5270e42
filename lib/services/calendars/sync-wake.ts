import "server-only";
// A wake-up call for this process's calendar sync loop (lib/jobs/calendar-sync-loop.ts), kept
// apart from the loop so that a push notification's route can ring it without loading the jobs.
// The bell lives on globalThis: Next.js may load this module once per bundle.
const holder = globalThis as unknown as { __bookingCalendarSyncWake?: () => void };

export function setCalendarSyncWake(wake: (() => void) | undefined): void {
  holder.__bookingCalendarSyncWake = wake;
}

/** A connection's sync was just made due (a push notification): take it now, not at the next poll. */
export function wakeCalendarSync(): void {
  holder.__bookingCalendarSyncWake?.();
}
