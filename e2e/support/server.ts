import { type ChildProcess, spawn } from "node:child_process";

// `npm start` as a child process for e2e specs that need their own servers (other settings, a
// restart, two instances), on ports of their own.

type Server = { proc: ChildProcess; output: () => string; url: string; stop: () => Promise<void>; kill: () => Promise<void> };

// Each Playwright worker process counts from here (100 above the main server's E2E_PORT, so two
// checkouts can run their suites side by side); the workers run one at a time (workers: 1).
let nextPort = Number(process.env.E2E_PORT ?? 3100) + 100;

/** The ports the next `count` calls of start() will give, for a party that must know them first (an OpenID provider's redirect URIs). */
export const nextPorts = (count: number): number[] => Array.from({ length: count }, (_, i) => nextPort + i);

/**
 * Starts `npm start` (or `command`: `node server.mjs` when a test needs the server's own exit
 * code, which npm does not pass on after a signal) and waits for /api/v1/health to answer 200
 * (at most 60 s). `env` may be a function of the port the server gets (for an APP_URL naming it).
 */
export async function start(
  settings: Record<string, string> | ((port: number) => Record<string, string>),
  command: [string, ...string[]] = ["npm", "start"],
): Promise<Server & { readyMs: number }> {
  const port = nextPort++;
  const env = typeof settings === "function" ? settings(port) : settings;
  const started = Date.now();
  const proc = spawn(command[0], command.slice(1), {
    // No drain delay unless a test asks: stopping test servers should be quick.
    // Every client here is 127.0.0.1: the per-address limits are raised unless a test sets them.
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      SHUTDOWN_DELAY_MS: "0",
      LIMIT_REGISTER: "1000/1h",
      LIMIT_BOOKINGS_PER_ADDRESS: "1000/10m",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once("exit", r));
    process.kill(-proc.pid!, "SIGTERM");
    await exited;
  };
  /** kill -9 of the whole process group: no shutdown code runs. */
  const kill = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once("exit", r));
    process.kill(-proc.pid!, "SIGKILL");
    await exited;
  };
  while (Date.now() - started < 60_000) {
    if (proc.exitCode !== null) throw new Error(`npm start exited early:\n${out}`);
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.status === 200) return { proc, url, stop, kill, output: () => out, readyMs: Date.now() - started };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`health did not answer 200 within 60 s:\n${out}`);
}

export async function post(url: string, body: unknown, token?: string) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}
