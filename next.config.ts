import type { NextConfig } from "next";
import { BOOKING_PAGE_SOURCE, securityHeaders } from "./lib/http/security-headers.mjs";

// Security headers: server.mjs (`npm start`) sets them on every answer; `next dev` has no
// server.mjs, so there they come from headers() below (lib/http/security-headers.mjs says why
// not in production).
const dev = process.env.NODE_ENV === "development";
const toList = (headers: Record<string, string>) => Object.entries(headers).map(([key, value]) => ({ key, value }));
// `npm run worker` (server.mjs --worker) serves no HTTP: the app's routes and pages are no use
// to it. Next.js loads every one of them at start unless told not to (73 MB of live heap in a
// worker, against 32 MB without them; docs/operations.md "Running in production"). A web process keeps the
// default, so no guest's first request waits for its route's code to load.
const worker = process.argv.includes("--worker");

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files, argon2 a native addon, pino worker threads:
  // load them from node_modules at run time instead of bundling them.
  // React Email renders with react-dom/server, which a server bundle may not import.
  serverExternalPackages: ["@react-email/components", "@electric-sql/pglite", "@node-rs/argon2", "googleapis", "pino", "postgres", "tsdav"],
  poweredByHeader: false,
  // The stylesheet is linked, not inlined (experimental.inlineCss): inlined, its 41 KB went into
  // the HTML three times (the <style>, and twice in React's payload for hydration, once for the
  // root layout and once for the global error page), 123 KB of a 160 KB booking page. Linked, it
  // is fetched once (server.mjs sends it brotli-compressed, cached for good) and every later page
  // uses it from the browser's cache.
  experimental: { preloadEntriesOnStart: !worker },
  async headers() {
    if (!dev) return [];
    const { all, embed } = securityHeaders(true);
    return [
      { source: "/:path*", headers: toList(all) },
      {
        source: BOOKING_PAGE_SOURCE,
        has: [{ type: "query", key: "embed", value: "1" }],
        // An empty X-Frame-Options is ignored by browsers, and the CSP decides.
        headers: [{ key: "x-frame-options", value: "" }, ...toList(embed)],
      },
    ];
  },
};

export default nextConfig;
