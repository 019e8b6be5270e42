import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invalidateHost } from "@/lib/services/host-time/cache";
import { describeFill, PAGE_FILL_HEADER, pageKeyOf, servePage } from "./page-cache";

// The booking pages' cache in front of a stand-in for Next.js: a render that answers in two
// chunks after a while and says what it was made of, as the booking page does.

const key = (url: string, headers: Record<string, string> = {}, method = "GET") => pageKeyOf(method, url, headers);

describe("which requests a kept page may answer", () => {
  it.each([
    ["/ada/intro", true],
    ["/ada-2/intro-call?embed=1", true],
    ["/team/sales/demo", true],
    ["/ada/intro/more", false],
    ["/ada", false],
    ["/dashboard/bookings", false],
    ["/booking/abc", false],
    ["/api/v1/health", false],
    ["/_next/static/x.js", false],
    ["/ada/Intro", false],
    ["/ad%61/intro", false],
    [`/ada/intro?${"x".repeat(600)}`, false],
  ])("%s: %s", (url, cached) => {
    expect(key(url) !== undefined).toBe(cached);
  });

  it("not the client router's own requests, and GET only", () => {
    expect(key("/ada/intro", { rsc: "1" })).toBeUndefined();
    expect(key("/ada/intro", { "next-router-prefetch": "1" })).toBeUndefined();
    expect(key("/ada/intro", {}, "HEAD")).toBeUndefined();
    expect(key("/ada/intro", {}, "POST")).toBeUndefined();
  });

  it("not a request whose headers are no browser's: an empty or a huge Accept-Language", () => {
    expect(key("/ada/intro", { "accept-language": "" })).toContain("|en|default|");
    expect(key("/ada/intro", { "accept-language": `de,${"x-y;q=0.1,".repeat(40)}` })).toBeUndefined();
    expect(key("/ada/intro", { "accept-language": "\u0000" })).toContain("|en|default|");
  });

  it("two languages never share a page, by every way a guest names one", () => {
    const en = key("/ada/intro", { "accept-language": "en-US,en;q=0.9" });
    const de = key("/ada/intro", { "accept-language": "de-DE,de;q=0.9" });
    expect(en).not.toBe(de);
    // The cookie the language select sets wins over the browser's list, ?lang= over both.
    const cookieFr = key("/ada/intro", { "accept-language": "de-DE", cookie: "a=1; booking_lang=fr" });
    expect(cookieFr).toContain("|fr|cookie|");
    expect(key("/ada/intro?lang=es", { "accept-language": "de-DE", cookie: "booking_lang=fr" })).toContain("|es|param|");
    // A repeated ?lang= names none (as the page reads it): the cookie decides.
    expect(key("/ada/intro?lang=es&lang=pt", { cookie: "booking_lang=fr" })).toContain("|fr|cookie|");
    // A language cookie sent twice: which one a parser keeps is not this cache's to guess.
    expect(key("/ada/intro", { cookie: "booking_lang=fr; booking_lang=de" })).toBeUndefined();
    // No language at all: the page's default, told apart from a browser that asked for English.
    expect(key("/ada/intro")).toContain("|en|default|");
    expect(en).toContain("|en|browser|");
  });

  it("the same language with another first weekday is another page; the same both, the same page", () => {
    expect(key("/ada/intro", { "accept-language": "en-US" })).not.toBe(key("/ada/intro", { "accept-language": "en-GB" }));
    expect(key("/ada/intro", { "accept-language": "de-DE,de;q=0.9,en;q=0.5" })).toBe(key("/ada/intro", { "accept-language": "de-AT" }));
    expect(key("/ada/intro?embed=1")).not.toBe(key("/ada/intro"));
  });
});

describe("serving booking pages from the cache", () => {
  let server: Server;
  let base: string;
  let renders = 0;
  // What the stand-in render says of itself; per test.
  let made: { deps: string[]; validUntil: number } | undefined;
  let status = 200;
  const body = `<!doctype html><html><body>${"<p>The booking page.</p>".repeat(400)}</body></html>`;

  function render(req: IncomingMessage, res: ServerResponse) {
    renders += 1;
    if (made) describeFill(req.headers[PAGE_FILL_HEADER] as string | undefined, made);
    // As Next.js answers: the page's headers, the body in chunks, not at once.
    res.statusCode = status;
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.setHeader("cache-control", "private, no-cache, no-store, max-age=0, must-revalidate");
    res.setHeader("vary", "rsc, next-router-state-tree");
    res.write(body.slice(0, 1000));
    setTimeout(() => res.end(body.slice(1000)), 40);
  }

  beforeAll(async () => {
    server = createServer((req, res) => {
      const page = pageKeyOf(req.method, req.url ?? "/", req.headers);
      if (page === undefined) return render(req, res);
      servePage(page, req, res, () => render(req, res));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, { headers });
    return { status: res.status, text: await res.text(), headers: res.headers };
  };

  it("renders a page once and answers the next guests with the same bytes, compressed as each asks", async () => {
    const host = randomUUID();
    made = { deps: [host], validUntil: Infinity };
    renders = 0;
    const first = await get("/kept/page");
    expect(first).toMatchObject({ status: 200, text: body });
    const again = await get("/kept/page");
    expect(again.text).toBe(body);
    expect(again.headers.get("vary")).toBe("rsc, next-router-state-tree, Accept-Encoding");
    expect(again.headers.get("cache-control")).toContain("no-store");
    expect(renders).toBe(1);
    // fetch() decompresses; node:http shows the wire.
    for (const [accept, encoding, decode] of [
      ["gzip, deflate, br", "br", brotliDecompressSync],
      ["gzip;q=1, br;q=0", "gzip", gunzipSync],
    ] as const) {
      const raw = await rawGet(base, "/kept/page", accept);
      expect(raw.encoding).toBe(encoding);
      expect(decode(raw.body).toString()).toBe(body);
    }
    expect(renders).toBe(1);
  });

  it("guests who ask while the page renders wait for that one render", async () => {
    made = { deps: [randomUUID()], validUntil: Infinity };
    renders = 0;
    const answers = await Promise.all(Array.from({ length: 20 }, () => get("/crowd/page")));
    expect(answers.every((a) => a.status === 200 && a.text === body)).toBe(true);
    expect(renders).toBe(1);
  });

  it("a change to what the page was made of retires it", async () => {
    const host = randomUUID();
    made = { deps: [host, randomUUID()], validUntil: Infinity };
    renders = 0;
    await get("/changed/page");
    await get("/changed/page");
    expect(renders).toBe(1);
    invalidateHost(host);
    await get("/changed/page");
    expect(renders).toBe(2);
  });

  it("keeps nothing the render did not describe, nor a failure, nor a page whose time is up", async () => {
    made = undefined;
    renders = 0;
    await get("/undescribed/page");
    await get("/undescribed/page");
    expect(renders).toBe(2);

    made = { deps: [randomUUID()], validUntil: Infinity };
    status = 404;
    renders = 0;
    expect((await get("/missing/page")).status).toBe(404);
    expect((await get("/missing/page")).status).toBe(404);
    expect(renders).toBe(2);
    status = 200;

    made = { deps: [randomUUID()], validUntil: Date.now() - 1 };
    renders = 0;
    await get("/expired/page");
    await get("/expired/page");
    expect(renders).toBe(2);
  });

  it("another language is another render, never the first one's page", async () => {
    made = { deps: [randomUUID()], validUntil: Infinity };
    renders = 0;
    await get("/lang/page", { "accept-language": "de" });
    await get("/lang/page", { "accept-language": "fr" });
    await get("/lang/page", { "accept-language": "de" });
    expect(renders).toBe(2);
  });
});

async function rawGet(base: string, path: string, acceptEncoding: string): Promise<{ encoding: string | undefined; body: Buffer }> {
  const { request } = await import("node:http");
  return new Promise((resolve, reject) => {
    request(base + path, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}
