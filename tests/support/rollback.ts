import type { Tx } from "@/db";
import { withTestDatabase } from "./database";

/**
 * Service tests without HTTP: each test calls the verbs on a transaction that is rolled back at
 * its end, on the file's own copy of the run's migrated PGlite template (withTestDatabase; the
 * vitest project must have the template's global setup, tests/support/pglite-template.ts).
 * Nothing a test writes outlives it, so tests need no unique names to stay apart, and a test
 * costs its own statements only: milliseconds.
 *
 * The verbs' own transactions (writeForHosts, markCancelled…) become savepoints of the test's;
 * their advisory locks are the test's until it ends. The process database (getDb) is this one
 * too, so what looks it up (the slot cache's listener) finds it, but a verb that wrote through
 * it outside the test's transaction would wait for that transaction forever: none of the verbs
 * tested this way does.
 *
 * Call at the top of a file or describe block; use `withRollback` inside its tests.
 */
export function rollbackDatabase(): { withRollback: <T>(work: (tx: Tx) => Promise<T>) => Promise<T> } {
  const database = withTestDatabase();
  return {
    async withRollback<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
      const outcome: { value?: T } = {};
      try {
        await database.current().db.transaction(async (tx) => {
          outcome.value = await work(tx);
          throw new RolledBack();
        });
      } catch (error) {
        if (!(error instanceof RolledBack)) throw error;
      }
      return outcome.value as T;
    },
  };
}

/** Thrown at the end of a test's transaction so that Drizzle rolls it back. */
class RolledBack extends Error {
  constructor() {
    super("rolled back at the end of the test");
  }
}
