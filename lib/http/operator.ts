import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";

// The operator's credential for what only they may see (GET /api/v1/health?full=1): a bearer token
// equal to OPS_TOKEN. Not "loopback only": behind a reverse proxy every request comes from
// loopback, so that would be public in practice.

const digest = (s: string) => createHash("sha256").update(s).digest();

/** Throws unless the request carries OPS_TOKEN as its bearer token (404 while OPS_TOKEN is unset). */
export function requireOperator(req: Request): void {
  const token = getConfig().opsToken;
  if (!token) throw new AppError("not_found", "The full report is off: set OPS_TOKEN to turn it on");
  const given = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "")?.[1];
  // Compared as digests: equal lengths, so the comparison's time says nothing about the token.
  if (!given || !timingSafeEqual(digest(given), digest(token))) {
    throw new AppError("unauthorized", "The full report needs the operator's token: Authorization: Bearer $OPS_TOKEN");
  }
}
