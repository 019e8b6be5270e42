import path from "node:path";
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import * as schema from "./schema";

export type Schema = typeof schema;
/** A database or a transaction: data functions take either, so callers choose the boundary. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /** Applies pending migrations from db/migrations (or another folder with a journal: the upgrade test's first release). */
  migrate(options?: { migrationsFolder?: string }): Promise<void>;
  /** A trivial round trip, for the health check. */
  ping(): Promise<void>;
  /**
   * PostgreSQL's LISTEN/NOTIFY between the processes sharing the database (PostgreSQL only:
   * an embedded PGlite has one process, which needs no messages).
   */
  messages?: {
    listen(channel: string, onMessage: (payload: string) => void): Promise<void>;
    notify(channel: string, payload: string): Promise<void>;
  };
  close(): Promise<void>;
  /** PGlite only: its data directory as a tarball, for `openPglite(…, { template })`. */
  dump?(): Promise<Blob>;
};

const migrationsFolder = path.join(process.cwd(), "db", "migrations");

/**
 * Embedded PostgreSQL (PGlite) in `dataDir`, or in memory when dataDir is undefined. `template`:
 * a data directory dumped by `dumpPglite` to start from (the tests' migrated template).
 */
export async function openPglite(dataDir: string | undefined, options: { template?: Blob } = {}): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create({ dataDir, extensions: { btree_gist }, loadDataDir: options.template });
  const db = drizzlePglite({ client, schema });
  return {
    db: db as unknown as Db,
    kind: "pglite",
    migrate: async (options) => {
      await migratePglite(db, { migrationsFolder: options?.migrationsFolder ?? migrationsFolder });
    },
    ping: async () => {
      await client.query("select 1");
    },
    close: () => client.close(),
    dump: () => client.dumpDataDir("none"),
  };
}

/** A PostgreSQL server through the `postgres` driver. */
export async function openPostgres(
  url: string,
  options: { max?: number; /** Sees every statement sent, with its parameters (the plan test's capture). */ onStatement?: (text: string, params: unknown[]) => void } = {},
): Promise<Database> {
  const onStatement = options.onStatement;
  const client = postgres(url, {
    max: options.max ?? 10,
    ...(onStatement ? { debug: (_connection: number, text: string, params: unknown[]) => onStatement(text, params) } : {}),
    // Migrations print NOTICEs (e.g. "extension already exists"); they are not news.
    onnotice: () => {},
  });
  const db = drizzlePostgres({ client, schema });
  return {
    db: db as unknown as Db,
    kind: "postgres",
    migrate: (options) => migratePostgresLocked(url, options?.migrationsFolder ?? migrationsFolder),
    ping: async () => {
      await client`select 1`;
    },
    messages: {
      // postgres.js keeps one dedicated connection for LISTEN and re-listens after a reconnect.
      listen: async (channel, onMessage) => {
        await client.listen(channel, onMessage);
      },
      notify: async (channel, payload) => {
        await client.notify(channel, payload);
      },
    },
    close: () => client.end({ timeout: 5 }),
  };
}

/**
 * The key of the session-level advisory lock every process takes before it migrates (one bigint:
 * it cannot meet the transaction locks of lib/store/locks.ts, which hash names with
 * hashtextextended, except by a 1-in-2^64 chance). "bookmig" in ASCII.
 */
export const MIGRATION_LOCK_KEY = 0x626f6f6b6d6967n;

/**
 * Applies pending migrations once however many processes start together on one database: each
 * takes the advisory lock on a connection of its own, and migrates on that same connection while
 * it holds it. The first one migrates; the others wait at the lock, then find the migrations table
 * up to date and apply nothing. The lock is released explicitly, and by PostgreSQL when the
 * connection ends (a process killed mid-migration leaves no lock behind; its transaction rolls back).
 */
async function migratePostgresLocked(url: string, folder: string): Promise<void> {
  const connection = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await connection`select pg_advisory_lock(${MIGRATION_LOCK_KEY.toString()}::bigint)`;
    try {
      await migratePostgres(drizzlePostgres({ client: connection }), { migrationsFolder: folder });
    } finally {
      await connection`select pg_advisory_unlock(${MIGRATION_LOCK_KEY.toString()}::bigint)`;
    }
  } finally {
    await connection.end({ timeout: 5 });
  }
}

/** A parameter of a driver statement: cast it in the SQL (`$1::text::jsonb`), so both drivers send it as is. */
export type StatementParam = string | number | boolean | null;
export type Statement = { text: string; params: readonly StatementParam[] };
/** Runs statements, in the order given, on the connection of a database or transaction. */
export type RunStatements = <Rows extends Record<string, unknown>[][]>(statements: { [K in keyof Rows]: Statement }) => Promise<Rows>;

type PostgresJsClient = { unsafe(text: string, params: StatementParam[], options: { prepare: boolean }): PromiseLike<Record<string, unknown>[]> };
type PgliteClient = { query(text: string, params: StatementParam[]): Promise<{ rows: Record<string, unknown>[] }> };

/**
 * The hot paths' way to PostgreSQL, below Drizzle's query builder: fixed SQL texts, prepared once
 * per connection on PostgreSQL (Drizzle prepares only named queries, and builds the text of every
 * other one again on each call), sent together as one pipeline. The driver runs them in the order
 * given and the server one after the other, each with its own snapshot: a lock sent first is held
 * before the statements after it read anything, without waiting a round trip for it. If one
 * fails, the ones after it fail too (the transaction is aborted) and the first error is thrown.
 *
 * Parameters are strings, numbers, booleans or null, each cast in the SQL text (`$1::text`),
 * and results should carry no timestamps (select epoch milliseconds): Drizzle configures the two
 * drivers' parsers and serializers differently, and these casts make both behave the same.
 */
export function runStatements(db: Db | Tx): RunStatements {
  // Drizzle keeps the driver's client (for a transaction, the one it runs on) on its session.
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client;
  if (client && typeof (client as PostgresJsClient).unsafe === "function") {
    const pg = client as PostgresJsClient;
    return ((statements: Statement[]) =>
      Promise.all(statements.map((s) => pg.unsafe(s.text, [...s.params], { prepare: true })))) as RunStatements;
  }
  if (client && typeof (client as PgliteClient).query === "function") {
    const lite = client as PgliteClient;
    // PGlite queues queries in the order they are made, and runs them one at a time.
    return ((statements: Statement[]) => Promise.all(statements.map((s) => lite.query(s.text, [...s.params]).then((r) => r.rows)))) as RunStatements;
  }
  throw new Error("runStatements: not a Drizzle database or transaction of postgres.js or PGlite");
}

/** The first value `pick` finds on an error or its causes (Drizzle wraps driver errors). */
function findInCauses(error: unknown, pick: (e: Record<string, unknown>) => string | undefined): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const found = pick(current as Record<string, unknown>);
    if (found !== undefined) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The SQLSTATE of a PostgreSQL error (23505 unique, 23P01 exclusion, …), if any. */
export function pgErrorCode(error: unknown): string | undefined {
  return findInCauses(error, (e) => (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : undefined));
}

/** The constraint name of a PostgreSQL error (postgres.js: `constraint_name`, PGlite: `constraint`). */
export function pgConstraint(error: unknown): string | undefined {
  return findInCauses(error, (e) => {
    const name = e.constraint ?? e.constraint_name;
    return typeof name === "string" ? name : undefined;
  });
}

// Connection failures, not query failures: the database is down, restarting or unreachable.
const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT"]);

/**
 * Whether an error means the database cannot be reached right now (the service should answer
 * 503 and try again on the next request), rather than that a query was wrong.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const sqlState = pgErrorCode(error);
  // 08: connection exception; 57P01–57P03: shutting down, crashed, cannot connect now; 53300: too many connections.
  if (sqlState && (sqlState.startsWith("08") || ["57P01", "57P02", "57P03", "53300"].includes(sqlState))) return true;
  return findInCauses(error, (e) => (typeof e.code === "string" && UNAVAILABLE_CODES.has(e.code) ? e.code : undefined)) !== undefined;
}
