// What the benchmarks share: builds, server processes, a small HTTP client and printing.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..");
const BUILD = process.env.BENCH_BUILD ?? "auto";

/** What `next build` of the service reads: a newer file than .next/BUILD_ID means a new build. */
export const SERVICE_SOURCES = ["app", "lib", "db", "components", "instrumentation.ts", "next.config.ts", "package.json", "server.mjs"];

const servers = new Set<ChildProcess>();
const stopping = new Set<ChildProcess>();
const tempDirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];

export function say(line: string) {
  process.stdout.write(`${line}\n`);
}

/** A directory removed when the bench ends, however it ends. */
export function removeAtExit(dir: string) {
  tempDirs.push(dir);
}

/** Async clean-up (a scratch database) run when the bench ends normally or is interrupted. */
export function cleanUpAtExit(run: () => Promise<void>) {
  cleanups.push(run);
}

// ---------------------------------------------------------------------------------- processes

/** The newest modification time under `dir`, skipping build output and dependencies. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (entry.isFile()) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * BENCH_BUILD=always forces a build, never skips a stale one (a build that is missing is made all the
 * same: there is nothing to measure without it); otherwise only when a source is newer.
 */
export function needsBuild(appDir: string, sources: string[]): boolean {
  if (BUILD === "always") return true;
  const buildId = path.join(appDir, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  if (BUILD === "never") return false;
  const built = statSync(buildId).mtimeMs;
  return sources.some((s) => {
    const full = path.join(appDir, s);
    if (!existsSync(full)) return false;
    return (statSync(full).isDirectory() ? newestMtime(full) : statSync(full).mtimeMs) > built;
  });
}

/**
 * A git worktree may share another checkout's node_modules through a symlink; Turbopack compiles
 * nothing outside its root, so the root must then hold both (Next.js reads it from this variable).
 */
function buildRootEnv(): Record<string, string> {
  const modules = realpathSync(path.join(ROOT, "node_modules"));
  if (modules.startsWith(ROOT + path.sep) || process.env.NEXT_PRIVATE_OUTPUT_TRACE_ROOT) return {};
  let common = ROOT;
  while (!modules.startsWith(common + path.sep) && path.dirname(common) !== common) common = path.dirname(common);
  return { NEXT_PRIVATE_OUTPUT_TRACE_ROOT: common };
}

export function build(label: string, args: string[]) {
  say(`building ${label}: next ${args.join(" ")}`);
  const started = performance.now();
  const result = spawnSync("npx", ["next", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...buildRootEnv(), NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    encoding: "utf8",
  });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error(`next build of ${label} failed (exit ${result.status})`);
  }
  say(`  built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Builds the service when its build is missing or older than its sources. */
export function buildServiceIfNeeded() {
  if (needsBuild(ROOT, SERVICE_SOURCES)) build("the service", ["build"]);
  else say("  the service: .next is up to date");
}

/** bench/ceiling: the minimal Next.js app that measures the framework's own pace. */
export const CEILING = path.join(ROOT, "bench", "ceiling");

export function buildCeilingIfNeeded() {
  if (needsBuild(CEILING, ["app", "next.config.mjs", "instrumentation.js"])) build("the ceiling", ["build", "bench/ceiling"]);
  else say("  the ceiling: bench/ceiling/.next is up to date");
}

/**
 * The framework with the service's own route table: every route and page under app/ at its own
 * path, each route answering what bench/ceiling's does (the pre-serialised body) and each page
 * nothing, with bench/ceiling's layout, configuration and empty startup. Next.js routes a path
 * through the table's dynamic routes (49 of them), so the same path costs it more in a large app
 * than in bench/ceiling's three routes; this ceiling is that cost alone. Generated into
 * bench/.ceiling-routes (not kept in git) and rebuilt when the table changes.
 */
export const ROUTES_CEILING = path.join(ROOT, "bench", ".ceiling-routes");

const TRIVIAL_ROUTE = `// Generated by bench/harness.ts (buildRoutesCeilingIfNeeded): bench/ceiling's handler at this path.
import { readFileSync } from "node:fs";

export const dynamic = "force-dynamic";

let body;

export function GET() {
  body ??= process.env.CEILING_BODY_FILE ? readFileSync(process.env.CEILING_BODY_FILE, "utf8") : "{}";
  return new Response(body, { headers: { "content-type": "application/json" } });
}

export const POST = GET;
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
`;
const TRIVIAL_PAGE = `// Generated by bench/harness.ts (buildRoutesCeilingIfNeeded): an empty page at this path.
export const dynamic = "force-dynamic";

export default function Page() {
  return null;
}
`;

/** The service's routes and pages, as paths under app/ (route.ts, page.tsx). */
function routeTable(dir = path.join(ROOT, "app"), prefix = ""): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...routeTable(path.join(dir, entry.name), relative));
    else if (entry.name === "route.ts" || entry.name === "page.tsx") found.push(relative);
  }
  return found;
}

export function buildRoutesCeilingIfNeeded() {
  const table = routeTable();
  const listing = path.join(ROUTES_CEILING, "routes.txt");
  const current = existsSync(listing) ? readFileSync(listing, "utf8") : "";
  if (current !== table.join("\n")) {
    rmSync(ROUTES_CEILING, { recursive: true, force: true });
    for (const file of ["next.config.mjs", "instrumentation.js", "app/layout.js"]) {
      mkdirSync(path.dirname(path.join(ROUTES_CEILING, file)), { recursive: true });
      copyFileSync(path.join(CEILING, file), path.join(ROUTES_CEILING, file));
    }
    for (const file of table) {
      const target = path.join(ROUTES_CEILING, "app", file.replace(/\.tsx?$/, ".js"));
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, file.endsWith("route.ts") ? TRIVIAL_ROUTE : TRIVIAL_PAGE);
    }
    writeFileSync(listing, table.join("\n"));
    say(`  the route-table ceiling: ${table.length} routes and pages generated in bench/.ceiling-routes`);
  }
  if (needsBuild(ROUTES_CEILING, ["app", "next.config.mjs", "instrumentation.js"])) build("the route-table ceiling", ["build", "bench/.ceiling-routes"]);
  else say("  the route-table ceiling: bench/.ceiling-routes/.next is up to date");
}

/**
 * `next start bench/ceiling` (or `appDir`) on `port`, answering 200 at every path of `ready`. Its DATA_DIR must stay
 * unmade: should the ceiling ever run the service's startup again (its build once took the
 * repository's instrumentation.ts, so "Next.js alone" opened a database and ran the job worker), the
 * bench stops here instead of printing a flattering ratio.
 */
export async function startCeiling(port: number, ready: string[], env: Record<string, string> = {}, appDir = CEILING): Promise<ChildProcess> {
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "bench-ceiling-")), "data");
  removeAtExit(path.dirname(dataDir));
  const app = path.relative(ROOT, appDir);
  const child = startServer(`next start ${app}`, "npx", ["next", "start", app, "-p", String(port), "-H", "127.0.0.1"], {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATA_DIR: dataDir,
    ...env,
  });
  for (const urlPath of ready) await waitFor200(`http://127.0.0.1:${port}${urlPath}`, child);
  if (existsSync(dataDir)) {
    throw new Error(`${app} ran the service's startup (it made a data directory): it is not Next.js alone; see bench/ceiling/instrumentation.js`);
  }
  return child;
}

/** `npm start`'s own command (package.json), with node flags added: e.g. a CPU profile, or a heap setting to try. */
export function startCommand(nodeArgs: string[] = []): [string, string[]] {
  if (nodeArgs.length === 0) return ["npm", ["start"]];
  const script = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;
  const [node, ...rest] = script.split(" ").filter(Boolean);
  if (node !== "node" || rest.length === 0) throw new Error(`npm start is not a node command: ${script}`);
  // After npm start's own flags, so that a flag given again here wins.
  return ["node", [...rest.slice(0, -1), ...nodeArgs, rest.at(-1)!]];
}

/**
 * What `npm start` (or `npm run worker`) gets in the PostgreSQL benches: production, on `port`,
 * fresh secrets, no rate limits, quiet logs, no drain delay.
 */
export function postgresServiceEnv(port: number, databaseUrl: string, dataDir: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(48).toString("base64url"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    RATE_LIMITS: "off",
    LOG_LEVEL: "warn",
    SHUTDOWN_DELAY_MS: "0",
    NEXT_TELEMETRY_DISABLED: "1",
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Starts a server in its own process group, so stopping it also stops npm's and Next's children. */
export function startServer(label: string, command: string, args: string[], env: Record<string, string>, cwd = ROOT): ChildProcess {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  servers.add(child);
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    tail.push(chunk.toString());
    if (tail.length > 50) tail.shift();
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  child.on("exit", (code, signal) => {
    if (servers.has(child)) {
      servers.delete(child);
      if (!stopping.has(child)) process.stderr.write(`${label} exited early (${code ?? signal}):\n${tail.join("")}\n`);
    }
  });
  return child;
}

/** SIGTERM to the server's group, SIGKILL after `graceMs` (a CPU profile takes a while to write). */
export async function stopServer(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (!servers.has(child) || child.pid === undefined) return;
  stopping.add(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // The group is already gone.
    }
  };
  signalGroup("SIGTERM");
  const timer = setTimeout(() => signalGroup("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
  signalGroup("SIGKILL"); // Stragglers of the group, if any.
  servers.delete(child);
}

/** Stops every server at once and removes the temporary directories (exit and interrupt). */
export function stopAllNow() {
  for (const child of servers) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  servers.clear();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The async clean-ups (scratch databases), after the servers using them are gone. */
export async function runCleanups() {
  for (const run of cleanups.splice(0).reverse()) {
    try {
      await run();
    } catch (error) {
      process.stderr.write(`clean-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
}

export async function waitFor200(url: string, child: ChildProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!servers.has(child)) throw new Error(`server for ${url} exited before answering`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`);
}

/**
 * Runs `main` as a bench's entry point: stops servers and cleans up whatever happens, including
 * Ctrl-C, and exits with 0 or 1.
 */
export function runMain(main: () => Promise<void>) {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      stopAllNow();
      void runCleanups().finally(() => process.exit(130));
    });
  }
  main()
    .then(async () => {
      stopAllNow();
      await runCleanups();
      process.exit(0);
    })
    .catch(async (error: unknown) => {
      process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      stopAllNow();
      await runCleanups();
      process.exit(1);
    });
}

// --------------------------------------------------------------------------------------- HTTP

export async function call(base: string, method: string, urlPath: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(base + urlPath, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

export async function expectOk(what: string, p: ReturnType<typeof call>) {
  const res = await p;
  if (res.status < 200 || res.status >= 300) throw new Error(`${what}: HTTP ${res.status} ${res.text.slice(0, 500)}`);
  return res;
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

// ----------------------------------------------------------------------------------- printing

export function table(rows: string[][]) {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const [n, row] of rows.entries()) {
    say(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "));
    if (n === 0) say(widths.map((w) => "-".repeat(w)).join("  "));
  }
}

/** Other work on the machine skews every figure here: say so next to them. */
export function loadNote(when: string) {
  const [one] = loadavg();
  const cores = availableParallelism();
  say(`  load average (1 min) ${when}: ${one!.toFixed(2)} on ${cores} cores${one! > cores * 0.5 ? " (busy machine: figures are noisy)" : ""}`);
}

/** The p-th percentile (0–100) of ascending `sorted`, nearest rank. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
