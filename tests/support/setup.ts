import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseConfig, setConfig } from "@/lib/config";

// Each file starts as a new process would. The unit and integration files share their workers
// (vitest.config.mts: isolate false), so what the service keeps per process, on globalThis under
// `__booking…` (the database, the configuration, rate-limit counters, the schedule cache, the
// metrics registry, the job worker and its wake-up, shutdown hooks, the SMTP connection), would
// otherwise carry over from the file before.
type ProcessState = {
  __bookingSmtp?: { transporter: { close(): void } };
  __bookingJobWorker?: { stop(): Promise<void> };
  __bookingCalendarSync?: { stop(): Promise<void> };
  __bookingHousekeeping?: { stop(): Promise<void> };
};
const processState = globalThis as ProcessState & Record<string, unknown>;
processState.__bookingSmtp?.transporter.close();
await processState.__bookingJobWorker?.stop();
await processState.__bookingCalendarSync?.stop();
await processState.__bookingHousekeeping?.stop();
for (const key of Object.keys(processState)) if (key.startsWith("__booking")) delete processState[key];

// Tests never read the developer's environment for secrets or data: a fixed, private config.
setConfig(
  parseConfig({
    NODE_ENV: "test",
    APP_URL: "http://booking.test",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-test-")),
    JWT_SECRET: randomBytes(32).toString("hex"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    RATE_LIMITS: "on",
    // Most files sign up and book from one address ("unknown" without X-Forwarded-For); the
    // per-address limits are tested at their defaults in tests/integration/address-limits.test.ts.
    LIMIT_REGISTER: "10000/1h",
    LIMIT_BOOKINGS_PER_ADDRESS: "10000/10m",
    // Every CalDAV server in the tests (Radicale, the small fakes) listens on loopback; the
    // address policy for host-given servers is tested with it off (calendars-caldav-address.test.ts).
    CALDAV_ALLOW_PRIVATE: "1",
    // Silent unless asked: TEST_LOG_LEVEL=error shows what a 500 in a test was.
    ...(process.env.TEST_LOG_LEVEL ? { LOG_LEVEL: process.env.TEST_LOG_LEVEL } : {}),
  }),
);
