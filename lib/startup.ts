import { getDatabase } from "@/db";
import { ConfigError, getConfig } from "@/lib/config";
import { log } from "@/lib/log";

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
  const started = performance.now();
  const database = await getDatabase();
  log.info({ database: database.kind, ms: Math.round(performance.now() - started) }, "database ready, migrations applied");
}
