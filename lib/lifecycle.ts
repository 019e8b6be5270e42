import "server-only";
// The process' life after start: whether it is draining (SIGTERM received: health says 503 so a
// load balancer stops sending traffic), and what must run before it exits (the outbox worker
// finishes its job, the database closes). server.mjs (plain JavaScript, outside the bundles)
// drives it through the same object on globalThis: { draining, hooks }.

type Hook = { name: string; run: () => Promise<void> };
/** What server.mjs started: `npm start` (serves, and runs the jobs unless WORKER=off) or `npm run worker` (jobs only). */
export type ProcessRole = "server" | "worker";
/** `deadline`: set by server.mjs at SIGTERM, when (epoch ms) it exits whatever is still running. */
type Lifecycle = { draining: boolean; hooks: Hook[]; role?: ProcessRole; deadline?: number };

const holder = globalThis as unknown as { __bookingLifecycle?: Lifecycle };

function lifecycle(): Lifecycle {
  return (holder.__bookingLifecycle ??= { draining: false, hooks: [] });
}

/** The role server.mjs gave this process; "server" when it did not start it (tests, `next dev`). */
export function processRole(): ProcessRole {
  return lifecycle().role ?? "server";
}

/** How long shutdown steps may still take before the process exits anyway; undefined: no limit set. */
export function shutdownTimeLeft(now: number = Date.now()): number | undefined {
  const deadline = lifecycle().deadline;
  return deadline === undefined ? undefined : deadline - now;
}

export function isDraining(): boolean {
  return lifecycle().draining;
}

/**
 * Runs `run` when the process shuts down, after in-flight requests have finished. Hooks run in
 * the reverse order of registration: what opened last (the worker) closes before what it uses
 * (the database).
 */
export function onShutdown(name: string, run: () => Promise<void>): void {
  lifecycle().hooks.push({ name, run });
}
