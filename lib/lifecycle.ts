import "server-only";
// The process' life after start: whether it is draining (SIGTERM received: health says 503 so a
// load balancer stops sending traffic), and what must run before it exits (the outbox worker
// finishes its job, the database closes), and how many HTTP requests it is answering right now
// (the outbox worker of a process that serves lets them go first). server.mjs (plain JavaScript,
// outside the bundles) drives it through the same object on globalThis: { draining, hooks,
// requests, idle }.

type Hook = { name: string; run: () => Promise<void> };
/** What server.mjs started: `npm start` (serves, and runs the jobs unless WORKER=off) or `npm run worker` (jobs only). */
export type ProcessRole = "server" | "worker";
/** `deadline`: set by server.mjs at SIGTERM, when (epoch ms) it exits whatever is still running. */
/**
 * `requests`: HTTP requests server.mjs has received and not yet answered; `idle`: called back (and
 * emptied) by server.mjs when that count comes back to 0.
 */
type Lifecycle = { draining: boolean; hooks: Hook[]; role?: ProcessRole; deadline?: number; requests?: number; idle?: Array<() => void> };

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

/** What background work yields to: the HTTP requests this process is answering. */
export type RequestLoad = {
  /** Whether a request is being answered right now. */
  busy(): boolean;
  /** Resolves once no request is in flight, or after `maxMs` whatever the traffic. */
  idle(maxMs: number): Promise<void>;
};

/** The requests server.mjs counts; never busy in a process it did not start (tests, `next dev`). */
export const requestLoad: RequestLoad = {
  busy: () => (lifecycle().requests ?? 0) > 0,
  idle: (maxMs) =>
    new Promise<void>((resolve) => {
      const state = lifecycle();
      if ((state.requests ?? 0) === 0) return resolve();
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const waiting = state.idle ?? [];
        const at = waiting.indexOf(done);
        if (at !== -1) waiting.splice(at, 1);
        resolve();
      }, maxMs);
      (state.idle ??= []).push(done);
    }),
};
