import type { NextConfig } from "next";

// Security headers on every page and API answer (issue 13). The CSP allows inline scripts and
// styles (Next.js inlines its bootstrap and React's streaming data) but never eval; `next dev`
// needs eval for its refresh runtime, so only development adds it. Framing: refused everywhere
// (frame-ancestors 'none', X-Frame-Options DENY), except booking pages asked for with ?embed=1,
// which any site may frame. HSTS is added by server.mjs when APP_URL is https (known at run time).
const dev = process.env.NODE_ENV === "development";

const csp = (frameAncestors: string) =>
  [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join("; ");

// /{username}/{slug} only: the first segment can be no path of the app's own (they are reserved
// usernames, lib/schemas/account.ts), so the dashboard and the rest can never be embedded.
const BOOKING_PAGE = "/:username((?!api|dashboard|login|register|cancel|reschedule|feeds|embed|metrics|health|_next)[a-z0-9][a-z0-9-]*)/:slug";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files, argon2 a native addon, pino worker threads:
  // load them from node_modules at run time instead of bundling them.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "googleapis", "pino", "postgres", "tsdav"],
  poweredByHeader: false,
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Content-Security-Policy", value: csp("'none'") },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
        ],
      },
      {
        source: BOOKING_PAGE,
        has: [{ type: "query", key: "embed", value: "1" }],
        headers: [
          // X-Frame-Options has no "anyone" value: an empty one is ignored by browsers, and CSP decides.
          { key: "X-Frame-Options", value: "" },
          { key: "Content-Security-Policy", value: csp("*") },
        ],
      },
    ];
  },
};

export default nextConfig;
