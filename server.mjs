// `npm run worker` (`server.mjs --worker`): the same build, without an HTTP server: it runs the
// jobs only (the outbox's emails, webhooks and calendar writes, the calendar sync loop,
// housekeeping; lib/startup.ts), and on SIGTERM finishes the jobs in hand before it exits.
//
// `npm start`: the built Next.js app behind Node's own HTTP server, for two reasons. The route
// handlers need the client's address for per-IP rate limits, and Next.js only passes a
// client-supplied X-Forwarded-For through: here `x-client-ip` is always the socket's address,
// overwriting whatever a client sent (lib/http/client-ip.ts decides which source to trust). And
// a stop must be clean: on SIGTERM or SIGINT the service drains (see `shutdown` below).
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import path from "node:path";
import { brotliCompressSync, constants as zlib } from "node:zlib";
import next from "next";
import { isEmbeddedBookingPage, securityHeaders } from "./lib/http/security-headers.mjs";

process.env.NODE_ENV ??= "production";
const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOST || "0.0.0.0";
// After SIGTERM, how long the service keeps accepting while health answers 503 (so a load
// balancer that polls it stops sending traffic first), then how long in-flight requests and the
// shutdown hooks may take before the process exits anyway.
const drainDelayMs = Number(process.env.SHUTDOWN_DELAY_MS ?? 2_000);
const finishTimeoutMs = Number(process.env.SHUTDOWN_TIMEOUT_MS || 10_000);

// Shared with lib/lifecycle.ts: `draining` turns health to 503, `hooks` close the worker and the database.
const lifecycle = (globalThis.__bookingLifecycle ??= { draining: false, hooks: [] });
const role = process.argv.includes("--worker") ? "worker" : "server";
lifecycle.role = role;

const app = next({ dev: false, hostname, port, dir: import.meta.dirname });
const handle = app.getRequestHandler();

try {
  // Runs instrumentation.ts: configuration, migrations, and (by role) the jobs.
  await app.prepare();
} catch (error) {
  process.stderr.write(`Could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

// The build's scripts and styles, brotli-compressed once and kept in memory: about a fifth smaller
// on the wire than the gzip Next.js sends, which a phone on a slow network feels. Files under
// /_next/static/ never change for a build (their names carry a hash), so caching them is safe.
const staticDir = path.join(import.meta.dirname, ".next", "static");
const brotli = new Map();
const STATIC_TYPES = { ".js": "application/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };

/** Whether serveBrotli may answer: a build file asked for by a client that takes brotli. */
function wantsBrotli(req) {
  return req.method === "GET" && req.url?.startsWith("/_next/static/") && /\bbr\b/.test(String(req.headers["accept-encoding"] ?? ""));
}

async function serveBrotli(req, res) {
  const relative = decodeURIComponent(req.url.slice("/_next/static/".length).split("?")[0]);
  const type = STATIC_TYPES[path.extname(relative)];
  const file = path.join(staticDir, relative);
  if (!type || !file.startsWith(staticDir + path.sep)) return false;
  let body = brotli.get(file);
  if (!body) {
    try {
      body = brotliCompressSync(await readFile(file), { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } });
    } catch {
      return false; // not a file of the build: Next.js answers (404)
    }
    brotli.set(file, body);
  }
  res.writeHead(200, {
    "content-type": type,
    "content-encoding": "br",
    "content-length": body.length,
    "cache-control": "public, max-age=31536000, immutable",
    vary: "Accept-Encoding",
    "x-content-type-options": "nosniff",
  });
  res.end(body);
  return true;
}

// Browsers that once saw the service over https keep to it (only meaningful when APP_URL is https).
const hsts = (process.env.APP_URL ?? "").startsWith("https://");
const security = securityHeaders();
const securityEntries = Object.entries(security.all);

// The booking pages' cache (lib/http/page-cache.ts), set up by the app's start (instrumentation,
// which may still be opening the database when the first request comes): a booking page's GET is
// answered with the page kept for its language, rendered once.
const pageCache = () => globalThis.__bookingPageCache;

/** Everything but the build's static files: Next.js answers (or the booking pages' cache), under the security headers. */
function handleWithHeaders(req, res) {
  for (const [name, value] of securityEntries) res.setHeader(name, value);
  if (isEmbeddedBookingPage(req.url ?? "/")) {
    res.removeHeader("x-frame-options");
    res.setHeader("content-security-policy", security.embed["content-security-policy"]);
  }
  const gone = goneLinkToken(req);
  if (gone !== undefined) return answerWithLinkStatus(gone, req, res);
  const pages = pageCache();
  const page = pages?.keyOf(req);
  if (page !== undefined) return pages.serve(page, req, res, () => handle(req, res));
  return handle(req, res);
}

/** The token of a GET /d/{token} page (a one-time link), whose status the app decides (lib/guest/one-time-link-page.ts). */
function goneLinkToken(req) {
  if ((req.method !== "GET" && req.method !== "HEAD") || !globalThis.__linkPageStatus) return undefined;
  const match = /^\/d\/([A-Za-z0-9_-]{16,128})(?:[?#]|$)/.exec(req.url ?? "");
  return match?.[1];
}

/** A one-time link's page, rendered by Next.js, under the status the link calls for: 410 once used, expired or withdrawn. */
function answerWithLinkStatus(token, req, res) {
  globalThis.__linkPageStatus(token).then(
    (status) => {
      if (status !== undefined) {
        const writeHead = res.writeHead;
        res.writeHead = function (code, ...rest) {
          return writeHead.call(this, code === 200 ? status : code, ...rest);
        };
      }
      handle(req, res);
    },
    () => handle(req, res),
  );
}

// The largest body any route reads (lib/http/parse.ts MAX_BODY_BYTES): one declared larger is
// refused here, for every route, before a byte of it is read. Bodies without a Content-Length are
// counted as they arrive by the routes that read them.
const MAX_BODY_BYTES = 1024 * 1024;

/** Whether the path holds a percent-escape that is not UTF-8 (`%ff`): Next.js answers those 500. */
function malformedPath(url) {
  // Only a percent-escape can fail to decode; most paths have none.
  if (!url.includes("%")) return false;
  const query = url.indexOf("?");
  try {
    decodeURIComponent(query === -1 ? url : url.slice(0, query));
    return false;
  } catch {
    return true;
  }
}

function jsonError(res, status, error, message, details = {}) {
  const body = JSON.stringify({ error, message, details });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), "cache-control": "no-store" });
  res.end(body);
}

/**
 * What Next.js must not see as it came: a body declared over the cap is answered 413, a path
 * that does not decode 400 JSON under /api/ (true: answered here), and a page path that does not
 * decode is turned into the site's 404 page (false: Next.js answers it).
 */
function screen(req, res) {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_BODY_BYTES) {
    // The rest of the body is not read: the connection closes after the answer.
    res.setHeader("connection", "close");
    jsonError(res, 413, "payload_too_large", `The request body must be at most ${MAX_BODY_BYTES} bytes`, { maxBytes: MAX_BODY_BYTES });
    return true;
  }
  const url = req.url ?? "/";
  if (!malformedPath(url)) return false;
  if (url.startsWith("/api/")) {
    jsonError(res, 400, "validation_error", "The path is not valid: a percent-escape in it is not UTF-8", {
      issues: [{ path: "", message: "Invalid percent-escape in the path" }],
    });
  } else {
    // A page that cannot exist: the site's own 404 page, as for any unknown address.
    req.url = "/_not-found";
    return false;
  }
  return true;
}

// Requests being answered: while there are any, this process's outbox worker claims no new jobs
// (lib/jobs/worker.ts `yieldTo`); when the count comes back to 0 the worker is called back.
lifecycle.requests = 0;
function answered() {
  lifecycle.requests -= 1;
  if (lifecycle.requests > 0 || !lifecycle.idle?.length) return;
  const waiting = lifecycle.idle;
  lifecycle.idle = [];
  for (const resume of waiting) resume();
}

const server = role === "worker" ? undefined : createServer((req, res) => {
  lifecycle.requests += 1;
  res.once("close", answered);
  req.headers["x-client-ip"] = req.socket.remoteAddress ?? "unknown";
  if (screen(req, res)) return;
  if (hsts) res.setHeader("strict-transport-security", "max-age=31536000; includeSubDomains");
  // While draining, each answer closes its connection: keep-alive clients reconnect elsewhere.
  if (lifecycle.draining) res.setHeader("connection", "close");
  // Everything else goes to Next.js at once, without a turn through the microtask queue.
  if (!wantsBrotli(req)) return void handleWithHeaders(req, res);
  serveBrotli(req, res).then(
    (served) => served || handleWithHeaders(req, res),
    () => handleWithHeaders(req, res),
  );
});
const log = (msg, extra = {}) => process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), service: "booking", msg, ...extra })}\n`);

if (server) {
  server.keepAliveTimeout = 65_000;
  // A port that cannot be had (taken, or not ours to bind) ends the start: a process that runs
  // the worker but serves no HTTP would look alive to a supervisor and answer nobody.
  server.once("error", (error) => {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    process.stderr.write(`Could not start: cannot listen on ${hostname}:${port} (${code ?? error.message})${code === "EADDRINUSE" ? "; another process holds the port: stop it or set PORT" : ""}\n`);
    process.exit(1);
  });
  server.listen(port, hostname, () => {
    process.stdout.write(`Ready on http://${hostname}:${port}\n`);
  });
} else {
  log("worker: serving no HTTP; the jobs run once the database is ready");
}

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  lifecycle.draining = true;
  // A worker has no traffic to drain: it stops claiming jobs at once and finishes those in hand.
  const drainMs = server ? drainDelayMs : 0;
  log(server ? "shutting down: health answers 503; then no new connections, and requests in flight finish" : "shutting down: no new jobs; the jobs in hand finish", { signal, drainDelayMs: drainMs });
  // The shutdown hooks see it too: the worker hands back the jobs it cannot finish before then.
  lifecycle.deadline = Date.now() + drainMs + finishTimeoutMs;
  const deadline = setTimeout(() => {
    log("shutdown took too long; exiting", { timeoutMs: drainMs + finishTimeoutMs });
    process.exit(1);
  }, drainMs + finishTimeoutMs);
  deadline.unref();
  if (server) {
    await new Promise((resolve) => setTimeout(resolve, drainMs));
    // Stop accepting; idle keep-alive connections go now, busy ones after their answer.
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    await closed;
  }
  for (const hook of [...lifecycle.hooks].reverse()) {
    try {
      await hook.run();
    } catch (error) {
      log("shutdown step failed", { step: hook.name, err: error instanceof Error ? error.message : String(error) });
    }
  }
  log("stopped cleanly");
  process.exit(0);
}

for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => void shutdown(signal));
