// Security headers on every page and API answer (issue 13), set by server.mjs on each response
// before Next.js handles it, and by next.config.ts under `next dev` (which has no server.mjs).
// Not through next.config.ts's headers() in production: Next.js matches those rules per request
// and compiles each value with a colon in it (the CSP's `data:` and `https:`) with path-to-regexp
// every time, about 50 µs per request, a twentieth of a slots answer.
//
// The CSP allows inline scripts and styles (Next.js inlines its bootstrap and React's streaming
// data, and the booking page starts its first slots requests from an inline script) but never
// eval; `next dev` needs eval for its refresh runtime, so only development adds it. Framing:
// refused everywhere (frame-ancestors 'none', X-Frame-Options DENY), except booking pages asked
// for with ?embed=1, which any site may frame.

/** @param {string} frameAncestors @param {boolean} dev */
export function contentSecurityPolicy(frameAncestors, dev = false) {
  return [
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
}

// /{username}/{slug} only: the first segment can be no path of the app's own (they are reserved
// usernames, lib/schemas/account.ts), so the dashboard and the rest can never be embedded.
const RESERVED = "api|dashboard|login|register|cancel|reschedule|feeds|embed|metrics|health|_next";
/** The same rule as a next.config.ts `source` (path-to-regexp), for `next dev`. */
export const BOOKING_PAGE_SOURCE = `/:username((?!${RESERVED})[a-z0-9][a-z0-9-]*)/:slug`;
const BOOKING_PAGE = new RegExp(`^/(?!${RESERVED})[a-z0-9][a-z0-9-]*/[^/]+?/?$`, "i");

/** @param {boolean} dev */
export function securityHeaders(dev = false) {
  return {
    all: {
      "x-content-type-options": "nosniff",
      "referrer-policy": "strict-origin-when-cross-origin",
      "x-frame-options": "DENY",
      "content-security-policy": contentSecurityPolicy("'none'", dev),
      "permissions-policy": "camera=(), microphone=(), geolocation=()",
    },
    // X-Frame-Options has no "anyone" value: it is left out, and the CSP decides.
    embed: { "content-security-policy": contentSecurityPolicy("*", dev) },
  };
}

/**
 * Whether a request URL ("/path?query") is a booking page asked for with ?embed=1 (the last
 * `embed` wins, as Next.js reads a repeated query key).
 * @param {string} url
 */
export function isEmbeddedBookingPage(url) {
  const q = url.indexOf("?");
  if (q < 0) return false;
  if (!BOOKING_PAGE.test(url.slice(0, q))) return false;
  return new URLSearchParams(url.slice(q + 1)).getAll("embed").at(-1) === "1";
}
