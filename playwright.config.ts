import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// Browser tests drive Debian's Chromium (no browser downloads) against `npm start`.
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.CI === "true") {
  throw new Error(`CI=true but Chromium is missing at ${CHROMIUM}: install Debian's chromium package`);
}

const port = Number(process.env.E2E_PORT ?? 3100);

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  reporter: [["list"]],
  timeout: 120_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: CHROMIUM,
      // Without these, Chromium keeps trying to reach Google's hosts from a closed network.
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: {
    command: "npm start",
    url: `http://127.0.0.1:${port}/api/v1/health`,
    timeout: 60_000,
    reuseExistingServer: false,
    stdout: "ignore",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-e2e-")),
      APP_URL: `http://127.0.0.1:${port}`,
      SHUTDOWN_DELAY_MS: "0",
      // Every browser and API client of the suite is 127.0.0.1: the per-address limits of
      // sign-ups and bookings (10/1h, 30/10m by default) would see the whole suite as one flood.
      LIMIT_REGISTER: "1000/1h",
      LIMIT_BOOKINGS_PER_ADDRESS: "1000/10m",
      LIMIT_SLOTS_PER_ADDRESS: "1000/1m",
      LIMIT_API_PER_ADDRESS: "100000/1m",
    },
  },
});
