import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { POST } from "@/app/api/auth/[...nextauth]/route";
import { MAX_BODY_BYTES } from "@/lib/http/parse";

// next-auth's own endpoints (/api/auth/*) are not behind the API's route wrapper: before, a
// 50 MB POST was read whole, and malformed JSON was a 500 with a stack trace.

const ctx = { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) };
const url = "http://booking.test/api/auth/callback/credentials";
// A streamed request body needs `duplex: "half"` in Node, a field the DOM typings do not know.
const HALF_DUPLEX = { duplex: "half" } as object;

/** A body that arrives in chunks with no Content-Length, counting how much of it was pulled. */
function chunked(totalBytes: number) {
  let pulled = 0;
  const chunk = new Uint8Array(64 * 1024).fill(97);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= totalBytes) return controller.close();
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}

describe("/api/auth/* bodies", () => {
  it("refuses a body over 1 MB by its Content-Length with 413 JSON, without reading it", async () => {
    const body = chunked(50 * 1024 * 1024);
    const req = new NextRequest(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(50 * 1024 * 1024) },
      body: body.stream,
      ...HALF_DUPLEX,
    });
    const res = await POST(req, ctx as never);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: "payload_too_large", details: { maxBytes: MAX_BODY_BYTES } });
    expect(body.pulled()).toBeLessThan(1024 * 1024);
  });

  it("stops a chunked body without Content-Length at 1 MB (413), not at its end", async () => {
    const body = chunked(50 * 1024 * 1024);
    const req = new NextRequest(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: body.stream, ...HALF_DUPLEX });
    const res = await POST(req, ctx as never);
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toMatch(/json/);
    expect(body.pulled()).toBeLessThan(2 * 1024 * 1024);
  });

  it("answers malformed JSON with 400 validation_error, no stack trace", async () => {
    const req = new NextRequest(url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"email": "a@example.com", "password": ' });
    const res = await POST(req, ctx as never);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ error: "validation_error", message: "The request body is not valid JSON" });
    expect(JSON.stringify(body)).not.toMatch(/at .*\.js|node_modules/);
  });
});
