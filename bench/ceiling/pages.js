// The ceiling of the booking page (see bench/run.ts, section 6): the real page's HTML, as the
// service sent it, answered at the real page's path (the same dynamic segments: routing them is
// Next.js's work) from memory. bench/run.ts writes a JSON object of path and query → HTML to a
// file and passes its path in CEILING_PAGES_FILE; it is read once, on the first request.
import { readFileSync } from "node:fs";

let pages;

export function GET(request) {
  pages ??= new Map(Object.entries(process.env.CEILING_PAGES_FILE ? JSON.parse(readFileSync(process.env.CEILING_PAGES_FILE, "utf8")) : {}));
  const url = new URL(request.url);
  const body = pages.get(url.pathname + url.search);
  if (body === undefined) return new Response("not a page of this run", { status: 404 });
  return new Response(body, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "private, no-cache, no-store, max-age=0, must-revalidate" } });
}
