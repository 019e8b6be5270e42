// GET, POST /api/auth/* – next-auth's own endpoints (csrf, session, credentials callback, sign-out)
import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/session";

type Context = { params: Promise<{ nextauth: string[] }> };

// Options are built per request, not at import: `next build` must not read secrets.
async function handler(req: NextRequest, ctx: Context): Promise<Response> {
  return NextAuth(req as never, ctx as never, authOptions());
}

export { handler as GET, handler as POST };
