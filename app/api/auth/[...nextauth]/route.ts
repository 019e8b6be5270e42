// GET, POST /api/auth/* – next-auth's own endpoints (csrf, session, providers, sign-in, callbacks, sign-out)
import { randomUUID } from "node:crypto";
import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/lib/dashboard/next-auth-options";
import { AppError, validationError } from "@/lib/errors";
import { readBodyBytes } from "@/lib/http/parse";
import { errorResponse } from "@/lib/http/respond";
import { unexpectedErrorResponse } from "@/lib/http/route";

type Context = { params: Promise<{ nextauth: string[] }> };

/**
 * next-auth reads a body whole, whatever its size, and answers malformed JSON with a 500 and a
 * stack trace. So the body is read here first, under the API's own cap (413 past 1 MB, counted
 * as it arrives), and JSON is checked (400). next-auth reads only JSON and form bodies.
 */
async function readBody(req: Request): Promise<Record<string, unknown> | undefined> {
  if (req.method !== "POST") return undefined;
  const text = Buffer.from(await readBodyBytes(req)).toString("utf8");
  const type = req.headers.get("content-type") ?? "";
  if (/\bjson\b/i.test(type) && text.trim() !== "") {
    try {
      const parsed: unknown = JSON.parse(text);
      return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
    } catch {
      throw validationError([{ path: "", message: "Malformed JSON" }], "The request body is not valid JSON");
    }
  }
  if (/application\/x-www-form-urlencoded/i.test(type)) return Object.fromEntries(new URLSearchParams(text));
  return undefined;
}

function cookiesOf(header: string | null): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    try {
      cookies[name] ??= decodeURIComponent(raw);
    } catch {
      cookies[name] ??= raw;
    }
  }
  return cookies;
}

/** The response next-auth's request/response handler writes into, made a fetch Response. */
class CollectedResponse {
  private statusCode = 200;
  private readonly headers = new Map<string, string | string[]>();
  private body: string | undefined;

  status(code: number) {
    this.statusCode = code;
    return this;
  }
  setHeader(name: string, value: string | string[]) {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }
  getHeader(name: string) {
    return this.headers.get(name.toLowerCase());
  }
  json(value: unknown) {
    this.setHeader("content-type", "application/json");
    this.body = JSON.stringify(value);
  }
  send(value: unknown) {
    this.body = typeof value === "string" || value === undefined ? value : JSON.stringify(value);
  }
  end() {}

  toResponse(): Response {
    const headers = new Headers();
    for (const [name, value] of this.headers) for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    return new Response(this.body ?? null, { status: this.statusCode, headers });
  }
}

/**
 * next-auth's request/response form, given the request's parts directly. Its App Router form
 * reads cookies and headers through next/headers, which exists only inside Next.js's request
 * scope; this way the same handler runs under `next start` and in-process in the tests, which
 * drive a whole company sign-in through it (tests/integration/oidc-sign-in.test.ts).
 */
async function runNextAuth(req: NextRequest, segments: string[]): Promise<Response> {
  const url = new URL(req.url);
  const res = new CollectedResponse();
  const nextReq = {
    method: req.method,
    query: { ...Object.fromEntries(url.searchParams), nextauth: segments },
    body: await readBody(req),
    cookies: cookiesOf(req.headers.get("cookie")),
    headers: Object.fromEntries(req.headers),
  };
  await NextAuth(nextReq as never, res as never, authOptions({ cookieHeader: req.headers.get("cookie") }));
  return res.toResponse();
}

// Options are built per request, not at import: `next build` must not read secrets.
async function handler(req: NextRequest, ctx: Context): Promise<Response> {
  try {
    return await runNextAuth(req, (await ctx.params).nextauth ?? []);
  } catch (error) {
    if (error instanceof AppError) return errorResponse(error);
    // Never next-auth's own error page with a stack: the API's 500 with a request id.
    return unexpectedErrorResponse(error, req.headers.get("x-request-id") ?? randomUUID());
  }
}

export { handler as GET, handler as POST };
