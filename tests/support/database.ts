import { afterAll, beforeAll } from "vitest";
import { setDatabase } from "@/db";
import { openPglite, openPostgres, type Database } from "@/db/client";

/**
 * Gives the test file its own database: a fresh in-memory PGlite, or (TEST_DB=postgres) a pool
 * on the migrated TEST_DATABASE_URL shared with other files. Tests create unique hosts with the
 * factories, so they never see each other's rows.
 */
export function withTestDatabase(): { current: () => Database } {
  let database: Database | undefined;
  beforeAll(async () => {
    if (process.env.TEST_DB === "postgres") {
      database = await openPostgres(process.env.TEST_DATABASE_URL!, { max: 8 });
    } else {
      database = await openPglite(undefined);
      await database.migrate();
    }
    setDatabase(database);
  });
  afterAll(async () => {
    setDatabase(undefined);
    await database?.close();
  });
  return {
    current: () => {
      if (!database) throw new Error("withTestDatabase: database not ready (call inside a test)");
      return database;
    },
  };
}
