import "server-only";
import { getConfig } from "@/lib/config";
import { onShutdown } from "@/lib/lifecycle";
import { openPglite, openPostgres, type Database, type Db } from "@/db/client";

/** Whether an error says the database cannot be reached (the route wrapper answers 503). */
export { isDatabaseUnavailable } from "@/db/client";

// The process database, chosen by the configuration (DATABASE_URL, else PGlite in DATA_DIR).
// One database per process. Next.js may load this module in more than one bundle (route
// handlers, instrumentation), and an embedded PGlite directory must never be opened twice,
// so the instance lives on globalThis.
// `__bookingDbReady` is the same database once open: a request takes it without waiting on a promise.
const store = globalThis as unknown as { __bookingDb?: Promise<Database>; __bookingDbReady?: Database };

async function open(): Promise<Database> {
  const config = getConfig();
  const database = config.databaseUrl
    ? await openPostgres(config.databaseUrl)
    : await openPglite(`${config.dataDir}/pglite`);
  await database.migrate();
  // Closed last on shutdown: PGlite flushes its files, the pool ends its connections.
  onShutdown("database", () => database.close());
  return database;
}

/** The process database, opened and migrated on first use. */
export function getDatabase(): Promise<Database> {
  if (!store.__bookingDb) {
    const opening = open();
    store.__bookingDb = opening;
    opening.then(
      (database) => {
        if (store.__bookingDb === opening) store.__bookingDbReady = database;
      },
      // A failed open must not be cached: the next request tries again.
      () => {
        if (store.__bookingDb === opening) store.__bookingDb = undefined;
      },
    );
  }
  return store.__bookingDb;
}

/** The process database if it is already open, else undefined (then `getDb` opens it). */
export function openedDb(): Db | undefined {
  return store.__bookingDbReady?.db;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

/** Installs a database for this process (tests hand in a fresh one). */
export function setDatabase(database: Database | undefined): void {
  store.__bookingDb = database ? Promise.resolve(database) : undefined;
  store.__bookingDbReady = database;
}

