import fc from "fast-check";
import type { HttpMethod, RouteHandler } from "@/lib/http/route";
import { edgeValuesLike, hostileKey, hostileValue, RawJson, REMOVE, taint, toJsonText, UNSTORABLE } from "./hostile";

// Sends one request, as a valid baseline with hostile changes, straight to a route's real
// handler: the params object is what Next.js hands over after decoding the path, so any string
// (NUL, lone surrogates) can reach the handler as a parameter.

/** A request before it is sent: a valid one, built per route, then mutated. */
export type RequestShape = {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  /** undefined: no body. */
  body?: unknown;
};

type Where = "body" | "query" | "params" | "headers";
type Change = { where: Where; path: (string | number)[]; value: unknown };

export type Mutation =
  | { kind: "set"; changes: Change[] }
  | { kind: "rawBody"; body: string | Uint8Array; contentType: string | undefined }
  | { kind: "rawQuery"; query: string };

export type Sent = { method: HttpMethod; url: string; headers: Record<string, string>; body: string | Uint8Array | undefined; params: Record<string, string> };
export type Answer = { status: number; text: string; contentType: string | null; location: string | null; sent: Sent };

/** Top-level keys of an object schema (through pipes and defaults): optional fields a baseline may leave out. */
export function schemaKeys(schema: unknown): string[] {
  const def = (schema as { _zod?: { def?: { type?: string; shape?: object; in?: unknown; innerType?: unknown } } } | undefined)?._zod?.def;
  if (!def) return [];
  if (def.type === "object" && def.shape) return Object.keys(def.shape);
  if (def.type === "pipe") return schemaKeys(def.in);
  if (def.innerType) return schemaKeys(def.innerType);
  return [];
}

/** Every path inside `value` (containers included), and the paths of its objects. */
function pathsOf(value: unknown, at: (string | number)[] = []): { all: (string | number)[][]; objects: (string | number)[][] } {
  const all: (string | number)[][] = at.length ? [at] : [];
  const objects: (string | number)[][] = [];
  if (Array.isArray(value)) value.forEach((v, i) => mergeInto(pathsOf(v, [...at, i])));
  else if (value && typeof value === "object") {
    objects.push(at);
    for (const [k, v] of Object.entries(value)) mergeInto(pathsOf(v, [...at, k]));
  }
  function mergeInto(p: { all: (string | number)[][]; objects: (string | number)[][] }) {
    all.push(...p.all);
    objects.push(...p.objects);
  }
  return { all, objects };
}

function getPath(value: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Record<string | number, unknown>)[k] : undefined), value);
}

/**
 * A copy of a generated value to put into a request: the shapes of hostile.ts are shared
 * constants, and a later change of the same mutation that sets a path inside one would write into
 * the constant itself (once, a cycle that every later run carried). RawJson tokens stay as they
 * are; keys stay own properties even when named "__proto__".
 */
function copyOf(value: unknown): unknown {
  if (!value || typeof value !== "object" || value instanceof RawJson) return value;
  if (Array.isArray(value)) return value.map(copyOf);
  const copy: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) Object.defineProperty(copy, key, { value: copyOf(v), enumerable: true, writable: true, configurable: true });
  return copy;
}

/** Sets (or removes) a path, as an own property even when the key is "__proto__". */
function setPath(root: Record<string, unknown>, path: (string | number)[], value: unknown) {
  let node: Record<string | number, unknown> = root;
  for (const key of path.slice(0, -1)) {
    const next = Object.prototype.hasOwnProperty.call(node, key) ? node[key] : undefined;
    if (!next || typeof next !== "object") Object.defineProperty(node, key, { value: {}, enumerable: true, writable: true, configurable: true });
    node = node[key] as Record<string | number, unknown>;
  }
  const last = path.at(-1)!;
  if (value === REMOVE) delete node[last];
  else Object.defineProperty(node, last, { value: copyOf(value), enumerable: true, writable: true, configurable: true });
}

export type MutationSpace = { template: RequestShape; bodyKeys: string[]; queryKeys: string[]; paramKeys: string[]; hasBody: boolean };

const HEADER_NAMES = ["authorization", "content-type", "idempotency-key", "x-forwarded-for", "x-client-ip", "x-request-id"];

/** Hostile changes to a request of this shape: one to three fields, unknown keys, whole bodies, raw queries. */
export function mutations(space: MutationSpace): fc.Arbitrary<Mutation> {
  const { template } = space;
  const slots: { where: Where; path: (string | number)[]; example: unknown }[] = [];
  const objects: { where: Where; path: (string | number)[] }[] = [{ where: "query", path: [] }];
  if (space.hasBody) {
    const body = pathsOf(template.body);
    for (const path of body.all) slots.push({ where: "body", path, example: getPath(template.body, path) });
    for (const key of space.bodyKeys) if (!body.all.some((p) => p.length === 1 && p[0] === key)) slots.push({ where: "body", path: [key], example: undefined });
    objects.push(...body.objects.map((path) => ({ where: "body" as const, path })));
  }
  for (const key of new Set([...Object.keys(template.query), ...space.queryKeys])) slots.push({ where: "query", path: [key], example: template.query[key] });
  for (const key of new Set([...Object.keys(template.params), ...space.paramKeys])) slots.push({ where: "params", path: [key], example: template.params[key] });
  for (const key of new Set([...Object.keys(template.headers), ...HEADER_NAMES])) slots.push({ where: "headers", path: [key], example: template.headers[key] });

  const valueFor = (example: unknown): fc.Arbitrary<unknown> => {
    const options: fc.WeightedArbitrary<unknown>[] = [{ arbitrary: hostileValue, weight: 4 }];
    if (typeof example === "string" && example) options.push({ arbitrary: taint(example), weight: 2 });
    const edges = edgeValuesLike(example);
    if (edges) options.push({ arbitrary: fc.constantFrom(...edges), weight: 3 });
    return fc.oneof(...options);
  };
  // Headers matter less than the fields a route reads: they get a smaller share of the changes.
  const groups = (["body", "query", "params", "headers"] as const)
    .map((where) => ({ where, of: slots.filter((s) => s.where === where) }))
    .filter((g) => g.of.length > 0)
    .map((g) => ({ arbitrary: fc.constantFrom(...g.of), weight: g.where === "headers" ? 1 : 3 }));
  const change = fc.oneof(...groups).chain((s) => valueFor(s.example).map((value): Change => ({ where: s.where, path: s.path, value })));
  const sets = fc.array(change, { minLength: 1, maxLength: 3 }).map((changes): Mutation => ({ kind: "set", changes }));
  const unknownKey = fc
    .tuple(fc.constantFrom(...objects), hostileKey, hostileValue)
    .map(([o, key, value]): Mutation => ({ kind: "set", changes: [{ where: o.where, path: [...o.path, key], value }] }));

  // The same edge value in every field of one form: from = to = 9999-12-31 gets past "to before from".
  const byForm = new Map<string[], typeof slots>();
  for (const s of slots) {
    const edges = edgeValuesLike(s.example);
    if (edges) byForm.set(edges, [...(byForm.get(edges) ?? []), s]);
  }
  // What PostgreSQL cannot store, slipped into any subset of the text fields at once: the class
  // of bug behind NUL and lone surrogates, whichever field forgets the shared Text type.
  const texts = slots.filter((s) => s.where !== "headers" && typeof s.example === "string" && s.example !== "");
  const options: fc.WeightedArbitrary<Mutation>[] = [
    { arbitrary: sets, weight: 6 },
    { arbitrary: unknownKey, weight: 2 },
    { arbitrary: rawQuery(Object.keys(template.query)), weight: 1 },
  ];
  if (byForm.size > 0) {
    const sameEdge = fc
      .constantFrom(...byForm.entries())
      .chain(([edges, form]) => fc.constantFrom(...edges).map((value): Mutation => ({ kind: "set", changes: form.map((s) => ({ where: s.where, path: s.path, value })) })));
    options.push({ arbitrary: sameEdge, weight: 2 });
  }
  if (texts.length > 0) {
    const fields = fc.oneof({ arbitrary: fc.constantFrom(...texts).map((s) => [s]), weight: 3 }, { arbitrary: fc.subarray(texts, { minLength: 1 }), weight: 1 });
    // Where in the text: the middle, or near the end, which for a URL-typed field is its path
    // (`https://example.com/a\u0000b.png`): a URL parser refuses NUL in a host, not in a path.
    const unstorable = fc.tuple(fc.constantFrom(...UNSTORABLE), fields, fc.constantFrom("middle", "path", "end")).map(
      ([bad, chosen, where]): Mutation => ({
        kind: "set",
        changes: chosen.map((s) => {
          const text = s.example as string;
          const at = where === "middle" ? Math.floor(text.length / 2) : where === "path" ? Math.max(0, text.length - 5) : text.length;
          return { where: s.where, path: s.path, value: text.slice(0, at) + bad + text.slice(at) };
        }),
      }),
    );
    options.push({ arbitrary: unstorable, weight: 3 });
  }
  if (space.hasBody) options.push({ arbitrary: rawBody, weight: 2 });
  return fc.oneof(...options);
}

const CONTENT_TYPES = ["application/json", "application/json; charset=utf-16", "APPLICATION/JSON", "application/merge-patch+json", "application/jsonx", "text/plain", "multipart/form-data; boundary=x", undefined];

/** Whole bodies: any JSON value, broken JSON, bytes that are not UTF-8, under any content type. */
const rawBody: fc.Arbitrary<Mutation> = fc
  .tuple(
    fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v) ?? "null"),
      fc.string({ unit: "binary", maxLength: 60 }),
      fc.constantFrom('{"a":', "{'a': 1}", "{}garbage", '{"a":1,}', "\u0000", '"\\ud800"', '{"\\u0000": "\\u0000"}', "[".repeat(100_000), "\ufeff{}", "NaN", "1e400"),
      fc.uint8Array({ maxLength: 40 }),
      fc.constantFrom(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]), new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00])),
    ),
    fc.constantFrom(...CONTENT_TYPES),
  )
  .map(([body, contentType]): Mutation => ({ kind: "rawBody", body, contentType }));

const PERCENT = ["%00", "%", "%zz", "%E0%A4%A", "%ED%A0%80", "%C0%80", "%FF", "%2500", "%26", "%3D", "+", "%20", "\u0000", "%F0%9F%98%80", "a%00b", ""];

/** Query strings as written on the wire: percent-encoded NUL and surrogates, broken escapes, repeats. */
function rawQuery(keys: string[]): fc.Arbitrary<Mutation> {
  const key = fc.oneof(fc.constantFrom(...keys, "__proto__", "constructor", "toString", ""), fc.constantFrom(...PERCENT));
  const value = fc.oneof(fc.constantFrom(...PERCENT), fc.array(fc.constantFrom(...PERCENT, "2027-03-15", "1", "UTC"), { maxLength: 4 }).map((a) => a.join("")));
  return fc
    .array(fc.tuple(key, value), { minLength: 1, maxLength: 4 })
    .map((pairs): Mutation => ({ kind: "rawQuery", query: pairs.map(([k, v]) => `${k}=${v}`).join("&") }));
}

function asText(value: unknown): string {
  if (typeof value === "string") return value;
  return toJsonText(value) ?? String(value);
}

/** A header value fetch accepts (a ByteString, no CR/LF/NUL): other characters become "?". */
function headerSafe(value: string): string {
  return value.replace(/[^\t\x20-\x7e\x80-\xff]/g, "?");
}

/** Path segments as a client would write them; a lone surrogate cannot be percent-encoded, so "?" stands in. */
function segment(value: string): string {
  return encodeURIComponent(value.replace(/\p{Cs}/gu, "\ufffd"));
}

export function applyMutation(shape: RequestShape, mutation: Mutation): { shape: RequestShape; rawBody?: { body: string | Uint8Array; contentType: string | undefined }; rawQuery?: string } {
  const next = structuredClone(shape);
  if (mutation.kind === "rawBody") return { shape: next, rawBody: { body: mutation.body, contentType: mutation.contentType } };
  if (mutation.kind === "rawQuery") return { shape: next, rawQuery: mutation.query };
  for (const c of mutation.changes) {
    if (c.where === "body") {
      if (c.path.length === 0) next.body = copyOf(c.value);
      else {
        if (!next.body || typeof next.body !== "object") next.body = {};
        setPath(next.body as Record<string, unknown>, c.path, c.value);
      }
    } else {
      // Query, params and headers hold strings: a non-string value goes as its JSON text.
      setPath(next[c.where], c.path, c.value === REMOVE ? REMOVE : asText(c.value));
    }
  }
  return { shape: next };
}

/** Sends the request to `handler` as Next.js would call it, and reads the whole answer. */
export async function send(handler: RouteHandler, method: HttpMethod, template: string, shape: RequestShape, mutation?: Mutation): Promise<Answer> {
  const applied = mutation ? applyMutation(shape, mutation) : { shape };
  const { params: rawParams, query, headers: rawHeaders, body } = applied.shape;
  const params = Object.fromEntries(Object.entries(rawParams).map(([k, v]) => [k, asText(v)]));
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => segment(params[name] ?? ""));
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, asText(v)])).toString();
  const fullQuery = [search, applied.rawQuery].filter(Boolean).join("&");
  const url = `http://booking.test/api/v1${path}${fullQuery ? `?${fullQuery}` : ""}`;

  const headers: Record<string, string> = {};
  let sentBody: string | Uint8Array | undefined;
  if (applied.rawBody) {
    sentBody = applied.rawBody.body;
    if (applied.rawBody.contentType) headers["content-type"] = applied.rawBody.contentType;
  } else if (body !== undefined && method !== "GET") {
    sentBody = toJsonText(body);
    headers["content-type"] = "application/json";
  }
  for (const [k, v] of Object.entries(rawHeaders)) headers[k.toLowerCase()] = headerSafe(asText(v));
  if (method === "GET") sentBody = undefined;

  const sent: Sent = { method, url, headers, body: sentBody, params };
  const req = new Request(url, { method, headers, body: typeof sentBody === "string" ? sentBody : sentBody && Buffer.from(sentBody) });
  const res = await handler(req, { params: Promise.resolve(params) });
  return { status: res.status, text: await res.text(), contentType: res.headers.get("content-type"), location: res.headers.get("location"), sent };
}

function describeSent(answer: Answer): string {
  const body = typeof answer.sent.body === "string" ? answer.sent.body : answer.sent.body ? `<${answer.sent.body.length} bytes>` : "";
  const short = (s: string) => JSON.stringify(s.length > 400 ? `${s.slice(0, 400)}…(${s.length} chars)` : s);
  return `${answer.sent.method} ${short(answer.sent.url)} params=${short(JSON.stringify(answer.sent.params))} headers=${short(JSON.stringify(answer.sent.headers))} body=${short(body)}`;
}

/**
 * Never a 5xx; every 4xx a JSON error body `{error, message, details}`; every other body JSON,
 * except a success that says it is an iCalendar file (the guest's .ics).
 */
export function expectNoServerError(answer: Answer): void {
  const fail = (why: string) => {
    throw new Error(`${why}: ${answer.status} ${answer.text.slice(0, 300)}\n  request: ${describeSent(answer)}`);
  };
  if (answer.status >= 500) fail("server error");
  if (answer.status === 204 || answer.status === 304) return;
  // A redirect (the OAuth routes): where to, and nothing else.
  if (answer.status >= 300 && answer.status < 400) {
    if (!answer.location) fail("redirect without a Location");
    return;
  }
  // A provider's push notification (decisions §17) is answered as the provider expects: an empty
  // 200 (Google) or 202 (Graph), and Graph's handshake with its token as text/plain.
  if (new URL(answer.sent.url).pathname.startsWith("/api/v1/hooks/") && answer.status < 300) {
    if (answer.text === "" || answer.contentType?.startsWith("text/plain")) return;
  }
  if (answer.status < 300 && answer.contentType?.startsWith("text/calendar")) {
    if (!answer.text.startsWith("BEGIN:VCALENDAR")) fail("not iCalendar");
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    fail("not JSON");
  }
  if (!answer.contentType?.startsWith("application/json")) fail(`content type ${answer.contentType}`);
  if (answer.status >= 400) {
    const e = body as { error?: unknown; message?: unknown; details?: unknown };
    const ok = typeof e?.error === "string" && typeof e.message === "string" && !!e.details && typeof e.details === "object" && !Array.isArray(e.details);
    if (!ok) fail("error body is not {error, message, details}");
  }
}
