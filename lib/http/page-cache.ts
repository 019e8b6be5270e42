import "server-only";
import { randomUUID } from "node:crypto";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import { headers } from "next/headers";
import { chooseGuestLanguage, firstLocaleOfAcceptLanguage, LANG_COOKIE, LANG_PARAM } from "@/lib/i18n/locales";
import { RESERVED_USERNAMES, USERNAME_FORMAT } from "@/lib/schemas/account";
import { EVENT_TYPE_SLUG_FORMAT } from "@/lib/schemas/event-type";
import { cacheEpoch, keepPage, keptPage } from "@/lib/services/host-time/cache";
import { weekStartOf } from "@/lib/time/month-grid";

// The booking page under a crowd (docs/product.md, after the slot cache). A host's link
// goes out in a newsletter and thousands open it within a minute; every one of them asks for the
// same page: what a guest gets does not depend on who they are until the browser knows their zone
// (the first paint shows the host, the event and the first open month, no time). So the page is
// the same for every guest of an event type in one language and one first weekday, and it changes
// only when what it was made of changes, which goes through one door (writeForHosts) that retires
// the slot cache's entries: the same generations retire a kept page, here and, by PostgreSQL's
// NOTIFY, on every other instance.
//
// server.mjs asks keyOf() for every request; a booking page's GET (not the client router's own
// requests) is answered by serve(): from the page kept for its key, or, the first time, by
// Next.js, whose answer is captured on its way to the guest and kept if the page said what it
// was made of (keepRenderedPage, while rendering) and nothing changed meanwhile. Guests who ask
// while it renders wait for that one render. A kept page is compressed once per encoding.

/** The request header that tells a render which fill it belongs to (set here; a client's value matches no fill). */
const FILL_HEADER = "x-booking-page-fill";
/** The client router's own requests (RSC payloads, prefetches): Next.js answers those itself. */
const ROUTER_HEADERS = ["rsc", "next-router-prefetch", "next-router-state-tree", "next-router-segment-prefetch"];
/** A longer query is answered without the cache (a page per distinct query string is kept otherwise). */
const MAX_QUERY = 512;
/** A browser's Accept-Language is a few dozen characters; a longer one is answered without the cache (nor remembered). */
const MAX_ACCEPT_LANGUAGE = 256;
/** What of Next.js's answer a kept page replays; the rest is per answer (date, length) or set by server.mjs (security). */
const KEPT_HEADERS = ["content-type", "cache-control", "vary"] as const;

type Encoding = "br" | "gzip";
type Page = { headers: Record<string, string>; body: Buffer; encoded: Partial<Record<Encoding, Buffer>>; encoding: Partial<Record<Encoding, Promise<Buffer>>> };
/** A render this cache started: the epoch before it, and what the page said it was made of. */
type Fill = { epoch: number; started: number; made?: PageMadeOf };
export type PageMadeOf = {
  /** The hosts' and teams' ids whose change retires the page (lib/services/bookable dependenciesOf). */
  deps: string[];
  /** When its content could change with the clock alone (its first open month's earliest expiry); Infinity: never. */
  validUntil: number;
};
type State = {
  fills: Map<string, Fill>;
  /** Keys being rendered: the guests asking meanwhile wait for it. */
  inflight: Map<string, Promise<void>>;
  /** Accept-Language header → the language it asks for and its first weekday (a header is one of a few). */
  browsers: Map<string, { locale: ReturnType<typeof chooseGuestLanguage>; weekStart: number }>;
};

const holder = globalThis as unknown as { __bookingPageFills?: State };
// One state per process: Next.js loads this module in the instrumentation's bundle and the page's.
function state(): State {
  return (holder.__bookingPageFills ??= { fills: new Map(), inflight: new Map(), browsers: new Map() });
}

/** /{username}/{slug} or /team/{teamSlug}/{slug}: the two paths of a booking page (decisions §15). */
function isBookingPagePath(path: string): boolean {
  const parts = path.split("/");
  if (parts.length === 3) return USERNAME_FORMAT.test(parts[1]!) && !RESERVED_USERNAMES.has(parts[1]!) && EVENT_TYPE_SLUG_FORMAT.test(parts[2]!);
  return parts.length === 4 && parts[1] === "team" && USERNAME_FORMAT.test(parts[2]!) && EVENT_TYPE_SLUG_FORMAT.test(parts[3]!);
}

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The value of the language cookie; null when it is there twice (which one a parser keeps is not this code's to guess). */
function languageCookie(header: string | undefined): string | undefined | null {
  let value: string | undefined;
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0 || part.slice(0, eq).trim() !== LANG_COOKIE) continue;
    if (value !== undefined) return null;
    value = part.slice(eq + 1).trim();
  }
  return value;
}

function browserOf(acceptLanguage: string | undefined) {
  const s = state();
  const key = acceptLanguage ?? "";
  let known = s.browsers.get(key);
  if (!known) {
    known = {
      locale: chooseGuestLanguage({ acceptLanguage }),
      // The preview's first weekday comes from the browser's first language (app/_booking/slots-preview.ts).
      weekStart: weekStartOf(firstLocaleOfAcceptLanguage(acceptLanguage) ?? "en-US"),
    };
    if (s.browsers.size >= 1_000) s.browsers.clear();
    s.browsers.set(key, known);
  }
  return known;
}

/**
 * The kept page a request may be answered with, by everything the booking page's render reads of
 * the request (its path and query, the language cookie, Accept-Language: lib/i18n/locales.ts
 * chooseGuestLanguage and the first weekday); undefined for any other request.
 */
export function pageKeyOf(method: string | undefined, url: string, headers: IncomingHttpHeaders): string | undefined {
  if (method !== "GET" || ROUTER_HEADERS.some((h) => headers[h] !== undefined)) return undefined;
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? "" : url.slice(q + 1);
  if (query.length > MAX_QUERY || !isBookingPagePath(path)) return undefined;
  const cookie = languageCookie(one(headers.cookie));
  if (cookie === null) return undefined;
  const acceptLanguage = one(headers["accept-language"]);
  if (acceptLanguage && acceptLanguage.length > MAX_ACCEPT_LANGUAGE) return undefined;
  const browser = browserOf(acceptLanguage);
  // As Next.js hands the page its query: one value as a string, a repeated key as a list.
  const named = query ? new URLSearchParams(query).getAll(LANG_PARAM) : [];
  const param = named.length > 1 ? named : named[0];
  const { locale, source } = param !== undefined || cookie !== undefined ? chooseGuestLanguage({ param, cookie, acceptLanguage }) : browser.locale;
  return `${path}?${query}|${locale}|${source}|${browser.weekStart}`;
}

/**
 * Called by the booking page while it renders: what it was made of. When the render was started
 * by this cache, the page is kept under that; otherwise (`next dev`, a test) it does nothing.
 */
export async function keepRenderedPage(made: PageMadeOf): Promise<void> {
  describeFill((await headers()).get(FILL_HEADER), made);
}

/** What the render of fill `token` (its request's FILL_HEADER) was made of; a token this process did not give is ignored. */
export function describeFill(token: string | null | undefined, made: PageMadeOf): void {
  const fill = token ? state().fills.get(token) : undefined;
  if (fill) fill.made = made;
}

export const PAGE_FILL_HEADER = FILL_HEADER;

/** Answers a booking page's request (its key from pageKeyOf): kept, or rendered by `render` (Next.js) and kept. */
export function servePage(key: string, req: IncomingMessage, res: ServerResponse, render: () => void): void {
  const kept = keptPage<Page>(key, Date.now());
  if (kept) return void send(kept.value, req, res);
  const s = state();
  const rendering = s.inflight.get(key);
  if (rendering) {
    void rendering.then(() => {
      const after = keptPage<Page>(key, Date.now());
      if (after) send(after.value, req, res);
      else render();
    });
    return;
  }
  s.inflight.set(
    key,
    fill(key, req, res, render).finally(() => s.inflight.delete(key)),
  );
}

/** Renders the page for this guest through Next.js, capturing the answer to keep it. */
function fill(key: string, req: IncomingMessage, res: ServerResponse, render: () => void): Promise<void> {
  const s = state();
  const token = randomUUID();
  const job: Fill = { epoch: cacheEpoch(), started: Date.now() };
  s.fills.set(token, job);
  req.headers[FILL_HEADER] = token;
  // Next.js then answers uncompressed: the kept page is compressed here, once per encoding.
  delete req.headers["accept-encoding"];
  const chunks = capture(res);
  return new Promise<void>((resolve) => {
    const done = () => {
      s.fills.delete(token);
      resolve();
    };
    res.once("finish", () => {
      try {
        keep(key, res, job, chunks);
      } finally {
        done();
      }
    });
    // Closed before it finished (the guest left): nothing is kept.
    res.once("close", done);
    render();
  });
}

function keep(key: string, res: ServerResponse, job: Fill, chunks: Buffer[]): void {
  // Only a whole page the render described, with nothing personal in it.
  if (res.statusCode !== 200 || !job.made || res.hasHeader("set-cookie") || res.hasHeader("content-encoding")) return;
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) kept[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  if (!/accept-encoding/i.test(kept.vary ?? "")) kept.vary = kept.vary ? `${kept.vary}, Accept-Encoding` : "Accept-Encoding";
  keepPage<Page>(key, job.made.deps, job.epoch, { headers: kept, body: Buffer.concat(chunks), encoded: {}, encoding: {} }, job.started, job.made.validUntil);
}

type Write = (chunk: unknown, encoding?: unknown, callback?: unknown) => boolean;
type End = (chunk?: unknown, encoding?: unknown, callback?: unknown) => ServerResponse;

/** The bytes written to `res` from now on, as they pass. */
function capture(res: ServerResponse): Buffer[] {
  const chunks: Buffer[] = [];
  const take = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === "string") chunks.push(Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  const write = res.write.bind(res) as Write;
  const end = res.end.bind(res) as End;
  (res as unknown as { write: Write }).write = (chunk, encoding, callback) => {
    take(chunk, encoding);
    return write(chunk, encoding, callback);
  };
  (res as unknown as { end: End }).end = (chunk, encoding, callback) => {
    if (typeof chunk !== "function") take(chunk, encoding);
    return end(chunk, encoding, callback);
  };
  return chunks;
}

const compressors: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) => promisify(brotliCompress)(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
};

/** The encoding a client takes, brotli first (q=0 refuses one; `*` takes any not refused). */
function encodingFor(accept: string | undefined): Encoding | undefined {
  if (!accept) return undefined;
  const quality = new Map<string, number>();
  for (const part of accept.split(",")) {
    const [name = "", ...params] = part.split(";").map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    quality.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const takes = (name: Encoding) => (quality.get(name) ?? quality.get("*") ?? 0) > 0;
  return takes("br") ? "br" : takes("gzip") ? "gzip" : undefined;
}

function send(page: Page, req: IncomingMessage, res: ServerResponse): void {
  const encoding = encodingFor(one(req.headers["accept-encoding"]));
  const ready = encoding ? page.encoded[encoding] : page.body;
  if (ready) return write(res, page, ready, encoding);
  // The first guest in this encoding: compressed once, off the event loop, then kept with the page.
  const pending = (page.encoding[encoding!] ??= compressors[encoding!](page.body).then((body) => (page.encoded[encoding!] = body)));
  pending.then(
    (body) => write(res, page, body, encoding),
    () => write(res, page, page.body, undefined),
  );
}

function write(res: ServerResponse, page: Page, body: Buffer, encoding: Encoding | undefined): void {
  res.writeHead(200, { ...page.headers, "content-length": body.length, ...(encoding ? { "content-encoding": encoding } : {}) });
  res.end(body);
}

/** What server.mjs calls (plain JavaScript, outside the bundles): set at start for a process that serves. */
export type PageCacheHooks = {
  keyOf(req: IncomingMessage): string | undefined;
  serve(key: string, req: IncomingMessage, res: ServerResponse, render: () => void): void;
};

export function installPageCache(): void {
  (globalThis as unknown as { __bookingPageCache?: PageCacheHooks }).__bookingPageCache = {
    keyOf: (req) => pageKeyOf(req.method, req.url ?? "/", req.headers),
    serve: servePage,
  };
}
