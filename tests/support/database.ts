import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, inject } from "vitest";
import { setDatabase } from "@/lib/store/database";
import { openPglite, openPostgres, type Database } from "@/db/client";
import { createScratchDatabase } from "./scratch-database";

/**
 * Gives the test file its own database: a fresh in-memory PGlite (a copy of the migrated
 * template), or (TEST_DB=postgres) a pool
 * on the migrated TEST_DATABASE_URL shared with other files. Tests create unique hosts with the
 * factories, so they never see each other's rows.
 *
 * `isolated`: on PostgreSQL, a database of the file's own, created and migrated for it and
 * dropped after it. For tests that run the outbox worker, which takes every due job in its
 * database — another file's jobs included, were the database shared.
 */
export function withTestDatabase(options: { isolated?: boolean } = {}): { current: () => Database; url: () => string | undefined } {
  let database: Database | undefined;
  let url: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (process.env.TEST_DB === "postgres") {
      url = process.env.TEST_DATABASE_URL!;
      if (options.isolated) {
        const own = await createScratchDatabase(url);
        url = own.url;
        dropDatabase = own.drop;
      }
      database = await openPostgres(url, { max: 8 });
      if (options.isolated) await database.migrate();
    } else {
      // A copy of the run's migrated template (tests/support/pglite-template.ts).
      const template = new Blob([await readFile(inject("pgliteTemplate"))]);
      database = await openPglite(undefined, { template });
    }
    setDatabase(database);
  });
  afterAll(async () => {
    setDatabase(undefined);
    await database?.close();
    await dropDatabase?.();
  });
  return {
    current: () => {
      if (!database) throw new Error("withTestDatabase: database not ready (call inside a test)");
      return database;
    },
    url: () => url,
  };
}
