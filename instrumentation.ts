// Runs once when the server starts: fail fast on bad configuration, then open the database and
// apply pending migrations before the first request, so /api/v1/health turns 200 only when ready.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getConfig, ConfigError } = await import("@/lib/config");
  const { log } = await import("@/lib/log");
  try {
    getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const { getDatabase } = await import("@/db");
  const started = performance.now();
  const database = await getDatabase();
  log.info({ database: database.kind, ms: Math.round(performance.now() - started) }, "database ready, migrations applied");
}
