import { afterEach, describe, expect, it, vi } from "vitest";

// next.config.ts is read by the process that starts (server.mjs), so what it decides depends on
// that process's role: a worker (`npm run worker`, server.mjs --worker) serves no HTTP and must
// not load every route and page of the app at start; a web process loads them, so no first
// request waits for its route's code.

const argv = process.argv;

async function configFor(args: string[]) {
  process.argv = [argv[0]!, "server.mjs", ...args];
  vi.resetModules();
  return (await import("../next.config")).default;
}

describe("next.config.ts by process role", () => {
  afterEach(() => {
    process.argv = argv;
  });

  it("a worker does not load the app's routes at start", async () => {
    expect((await configFor(["--worker"])).experimental?.preloadEntriesOnStart).toBe(false);
  });

  it("a web process loads them at start", async () => {
    expect((await configFor([])).experimental?.preloadEntriesOnStart).toBe(true);
  });
});
