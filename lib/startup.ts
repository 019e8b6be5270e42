import "server-only";
import { getDatabase } from "@/lib/store/database";
import { shadowedUsernames } from "@/lib/services/accounts/sessions";
import { ConfigError, getConfig } from "@/lib/config";
import { startJobWorker } from "@/lib/jobs/process-worker";
import { processRole } from "@/lib/lifecycle";
import { installPageCache } from "@/lib/http/page-cache";
import { installLinkPageStatus } from "@/lib/guest/one-time-link-page";
import { log } from "@/lib/log";
import { RESERVED_USERNAMES } from "@/lib/schemas/account";

// Server start: fail fast on bad configuration, then open the database and apply pending
// migrations before the first request, so /api/v1/health turns 200 only when ready.
export async function start(): Promise<void> {
  try {
    getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const role = processRole();
  if (role === "worker" && !getConfig().databaseUrl) {
    process.stderr.write(
      "npm run worker needs DATABASE_URL: the embedded database (PGlite) is opened by one process only; without DATABASE_URL, `npm start` runs the jobs itself\n",
    );
    process.exit(1);
  }
  // server.mjs answers booking pages from this process's cache of them (lib/http/page-cache.ts).
  if (role === "server") {
    installPageCache();
    installLinkPageStatus();
  }
  const started = performance.now();
  const database = await getDatabase();
  log.info({ database: database.kind, ms: Math.round(performance.now() - started) }, "database ready, migrations applied");
  // The jobs (the outbox: emails, webhooks, calendar writes; the calendar sync loop;
  // housekeeping) run in `npm run worker` processes, and in `npm start` unless WORKER=off. On
  // PostgreSQL every process running them shares the work (each job is claimed by one of them).
  if (role === "worker" || getConfig().worker === "on") {
    await startJobWorker(database);
  } else {
    log.info("WORKER=off: this process serves requests only; emails, webhooks and calendar syncs are left to `npm run worker`");
  }
  if (role === "worker") return;
  // Accounts made before their name became a page of the app: their /<username> page is shadowed.
  const shadowed = await shadowedUsernames(database.db, RESERVED_USERNAMES);
  if (shadowed.length > 0) {
    log.warn(
      { usernames: shadowed },
      "these hosts' usernames are now paths of the app: their public pages are not reachable at /<username>; the API and /api/v1/public/<username>/… still work",
    );
  }
}
