import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

// Integration tests run twice when TEST_DATABASE_URL is set: on embedded PGlite and on a real
// PostgreSQL. In CI the PostgreSQL run is mandatory.
const postgresUrl = process.env.TEST_DATABASE_URL;
if (!postgresUrl && process.env.CI === "true") {
  throw new Error("CI=true but TEST_DATABASE_URL is not set: the PostgreSQL integration run cannot be skipped in CI");
}
if (!postgresUrl) {
  console.warn("[vitest] TEST_DATABASE_URL is not set: integration tests run on PGlite only (PostgreSQL run skipped)");
}

const shared = {
  // `server-only` throws outside a server bundle; tests are server code, so they get its empty twin.
  resolve: { alias: { "@": path.resolve(import.meta.dirname), "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js") } },
};
// V8 compiles PGlite's WebAssembly twice: Liftoff at once, then TurboFan in the background for
// the code that runs hot. In a test run that second compile does not pay off: with a process per
// file it cost each file's PGlite ~1 s of CPU (2.6 s instead of 1.5 s); with shared workers the
// whole run still took ~4% more CPU with it than without (measured on this machine).
const workerArgs = { execArgv: ["--liftoff-only"] };

export default defineConfig({
  test: {
    // Two cores: keep parallelism modest; each integration file owns its own database.
    maxWorkers: 2,
    projects: [
      {
        ...shared,
        test: {
          ...workerArgs,
          name: "unit",
          include: ["lib/**/*.test.ts", "db/**/*.test.ts", "components/**/*.test.ts"],
          // The services' tests may need a database: their own project, below.
          exclude: [...configDefaults.exclude, "lib/services/**"],
          // Forty small files, most under 50 ms of tests: a process and a fresh module graph each
          // cost more than their tests. They share both; each file restores what it changes (its
          // config, stubbed globals, timers), and they pass in any order in one process
          // (--sequence.shuffle.files --maxWorkers=1).
          isolate: false,
          setupFiles: ["tests/support/setup.ts"],
          testTimeout: 30_000,
          // lib/rate-limit opens a PGlite in beforeAll: compiling its WASM alone took 7 s on this
          // machine under load, past the default 10 s once two workers share the cores.
          hookTimeout: 60_000,
        },
      },
      {
        ...shared,
        test: {
          ...workerArgs,
          // The verbs of lib/services called directly, beside their code: pure ones, and ones on
          // a PGlite copied from the run's template where each test's transaction is rolled back
          // (tests/support/rollback.ts). Like "unit", files share their worker and modules.
          name: "services",
          isolate: false,
          include: ["lib/services/**/*.test.ts"],
          setupFiles: ["tests/support/setup.ts"],
          globalSetup: ["tests/support/pglite-template.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        ...shared,
        test: {
          ...workerArgs,
          name: "pglite",
          // Files share a worker and its modules (no new process, module graph and PGlite
          // compile per file: about half the suite's CPU went there). Each file still owns its
          // database (tests/support/database.ts), and tests/support/setup.ts drops what the
          // service keeps per process before each file, so a file starts as in a new process.
          isolate: false,
          include: ["tests/integration/**/*.test.ts"],
          setupFiles: ["tests/support/setup.ts"],
          globalSetup: ["tests/support/pglite-template.ts"],
          env: { TEST_DB: "pglite" },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Times written as text (iCalendar, emails, formatted dates) once passed only because the
        // suite runs in UTC, where a floating time reads like a UTC one: these files run again
        // in a zone with an offset and DST.
        ...shared,
        test: {
          ...workerArgs,
          name: "tz-new-york",
          isolate: false, // as "pglite" above
          include: [
            "lib/notifications/**/*.test.ts",
            "lib/time/**/*.test.ts",
            "lib/dashboard/**/*.test.ts",
            "tests/integration/calendar-feed.test.ts",
            "tests/integration/booking-emails.test.ts",
            "tests/integration/guest-language.test.ts",
            "tests/integration/reminders.test.ts",
            "tests/integration/host-emails.test.ts",
            "tests/integration/team-bookings.test.ts",
            // A series keeps wall-clock time in the host's zone, not the process's.
            "lib/slots/series.test.ts",
            "lib/slots/series.property.test.ts",
            "lib/slots/seats.test.ts",
            "tests/integration/series.test.ts",
            "tests/integration/series-seats-effects.test.ts",
            // Days off are the host's local days, not the process's.
            "lib/slots/time-off.test.ts",
            "tests/integration/days-off.test.ts",
            // The reconnect email says since when in the host's zone.
            "tests/integration/broken-calendar-notice.test.ts",
            // Insights and the CSV export count and write days and hours in the host's zone.
            "tests/integration/insights*.test.ts",
          ],
          setupFiles: ["tests/support/setup.ts"],
          globalSetup: ["tests/support/pglite-template.ts"],
          env: { TEST_DB: "pglite", TZ: "America/New_York" },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      ...(postgresUrl
        ? [
            {
              ...shared,
              test: {
                name: "postgres",
                include: ["tests/integration/**/*.test.ts"],
                setupFiles: ["tests/support/setup.ts"],
                globalSetup: ["tests/support/postgres-global-setup.ts"],
                env: { TEST_DB: "postgres" },
                testTimeout: 60_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
