// GET, POST /api/auth/* – next-auth's own endpoints (csrf, session, credentials callback, sign-out)
import { randomUUID } from "node:crypto";
import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { authOptions } from "@/lib/dashboard/next-auth-options";
import { AppError, validationError } from "@/lib/errors";
import { readBodyBytes } from "@/lib/http/parse";
import { errorResponse } from "@/lib/http/respond";
import { unexpectedErrorResponse } from "@/lib/http/route";

type Context = { params: Promise<{ nextauth: string[] }> };

/**
 * next-auth reads a body whole, whatever its size, and answers malformed JSON with a 500 and a
 * stack trace. So the body is read here first, under the API's own cap (413 past 1 MB, counted
 * as it arrives), JSON is checked (400), and next-auth gets a copy it can read safely.
 */
async function withReadBody(req: NextRequest): Promise<NextRequest> {
  if (req.method !== "POST") return req;
  // next-auth reads only JSON and form bodies, both text.
  const text = Buffer.from(await readBodyBytes(req)).toString("utf8");
  if (/\bjson\b/i.test(req.headers.get("content-type") ?? "") && text.trim() !== "") {
    try {
      JSON.parse(text);
    } catch {
      throw validationError([{ path: "", message: "Malformed JSON" }], "The request body is not valid JSON");
    }
  }
  return new NextRequest(req.url, { method: req.method, headers: req.headers, body: text === "" ? undefined : text });
}

// Options are built per request, not at import: `next build` must not read secrets.
async function handler(req: NextRequest, ctx: Context): Promise<Response> {
  try {
    return await NextAuth((await withReadBody(req)) as never, ctx as never, authOptions());
  } catch (error) {
    if (error instanceof AppError) return errorResponse(error);
    // Never next-auth's own error page with a stack: the API's 500 with a request id.
    return unexpectedErrorResponse(error, req.headers.get("x-request-id") ?? randomUUID());
  }
}

export { handler as GET, handler as POST };
