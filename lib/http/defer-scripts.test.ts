import { createServer, get as httpGet, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deferPageScripts, rewriteScripts } from "./defer-scripts.mjs";

const A = "/_next/static/chunks/a1.js";
const B = "/_next/static/chunks/b2.js";
const head = `<!DOCTYPE html><html><head><meta charset="utf-8"/><link rel="preload" as="script" fetchPriority="low" href="${B}"/><script src="${A}" async=""></script><title>Book</title></head>`;
const body = `<body><main>Wählen Sie — 10:00</main><script src="${B}" async=""></script><script>self.__next_f.push([1,"x"])</script></body></html>`;

describe("rewriteScripts", () => {
  it("turns the head's bundle tags into the loader and one call, before </head>, and drops their preloads", () => {
    const out = rewriteScripts(head, true);
    expect(out).not.toContain(`<script src="${A}"`);
    expect(out).not.toContain('rel="preload" as="script"');
    expect(out).toMatch(/<script>\(function loader\(\)[\s\S]*<\/script><script>__deferScripts\(\["\/_next\/static\/chunks\/a1\.js"\]\)<\/script><\/head>$/);
    expect(out).toContain("<title>Book</title>");
  });

  it("turns a later bundle tag into a call where it stood, and leaves inline scripts and other text alone", () => {
    const out = rewriteScripts(body, false);
    expect(out).toBe(`<body><main>Wählen Sie — 10:00</main><script>__deferScripts(["${B}"])</script><script>self.__next_f.push([1,"x"])</script></body></html>`);
    expect(rewriteScripts("<p>no scripts</p>", false)).toBe("<p>no scripts</p>");
  });
});

// A page written the way Next.js streams one: headers set, then several writes, one of them
// splitting a character in two.
function nextLike(req: IncomingMessage, res: ServerResponse) {
  if (req.url === "/json") {
    res.setHeader("content-type", "application/json");
    res.setHeader("content-length", "11");
    res.end('{"ok":true}');
    return;
  }
  res.setHeader("content-type", "text/html; charset=utf-8");
  res.writeHead(200, { "x-from": "next" });
  const page = Buffer.from(head + body);
  const split = page.indexOf(Buffer.from("ä")) + 1; // inside "ä"
  res.write(page.subarray(0, 40));
  res.write(page.subarray(40, split));
  res.write(page.subarray(split));
  res.end();
}

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    deferPageScripts(req, res);
    nextLike(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The answer's headers and its bytes as sent (fetch would decompress them). */
async function get(path: string, acceptEncoding: string) {
  const res = await new Promise<IncomingMessage>((resolve) => httpGet(`${base}${path}`, { headers: { "accept-encoding": acceptEncoding } }, resolve));
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return { headers: res.headers, raw: Buffer.concat(chunks) };
}

describe("deferPageScripts on a streamed page", () => {
  it("sends the rewritten page gzip-compressed to a client that takes gzip, every character whole", async () => {
    const { headers, raw } = await get("/page", "gzip");
    expect(headers["content-encoding"]).toBe("gzip");
    expect(headers["content-length"]).toBeUndefined();
    expect(headers["x-from"]).toBe("next");
    const html = gunzipSync(raw).toString("utf8");
    expect(html).toContain("Wählen Sie — 10:00");
    expect(html).not.toMatch(/<script src="[^"]+" async="">/);
    expect(html).toContain(`__deferScripts(["${A}"])`);
    expect(html).toContain(`__deferScripts(["${B}"])`);
  });

  it("uses brotli when the client takes it, and plain text when it takes nothing", async () => {
    const br = await get("/page", "gzip, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.raw).toString("utf8")).toContain(`__deferScripts(["${A}"])`);

    const plain = await get("/page", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.raw.toString("utf8")).toContain("Wählen Sie — 10:00");
  });

  it("leaves an answer that is not HTML as it is", async () => {
    const { headers, raw } = await get("/json", "gzip");
    expect(headers["content-encoding"]).toBeUndefined();
    expect(headers["content-length"]).toBe("11");
    expect(raw.toString()).toBe('{"ok":true}');
  });
});
