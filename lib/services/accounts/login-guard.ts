import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "@/db";
import type { UserRow } from "@/db/schema";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { getRateLimitStore, type RateLimitResult } from "@/lib/rate-limit";
import { verifyCredentials } from "./credentials";

// Password guessing, slowed down where it happens: at most 10 attempts per 15 minutes for one
// (client address, email) pair, of which a success takes its own back, and 100 attempts per
// client address. Both counters are raised before the password is checked: raised after, a burst
// of parallel guesses would all be checked before the first failure was counted (250 were). The
// pair is per address, so a guesser elsewhere cannot lock the real owner out. The counters live
// in the same store as the other limits (memory, PostgreSQL or Upstash), so several instances
// share them. Both ways in (the API's /auth/login and the dashboard's session) go through here.

export const LOGIN_LIMITS = { pair: 10, address: 100, windowSeconds: 15 * 60 } as const;

function tooMany(state: RateLimitResult): AppError {
  return new AppError(
    "rate_limited",
    "Too many login attempts: wait a few minutes before trying again",
    { retryAfterSeconds: Math.max(1, state.resetSeconds) },
    { rateLimit: state },
  );
}

export async function logInGuarded(db: Db, input: { email: string; password: string }, clientAddress: string): Promise<UserRow> {
  if (!getConfig().rateLimits) return verifyCredentials(db, input);
  const store = await getRateLimitStore();
  const { windowSeconds } = LOGIN_LIMITS;
  // The email is hashed: counter keys end up in Redis or a table, and need not hold addresses.
  const pairKey = `login:pair:${clientAddress}:${createHash("sha256").update(input.email).digest("base64url")}`;
  const addressKey = `login:address:${clientAddress}`;

  const address = await store.hit(addressKey, LOGIN_LIMITS.address, windowSeconds);
  if (!address.allowed) throw tooMany(address);
  const pair = await store.hit(pairKey, LOGIN_LIMITS.pair, windowSeconds);
  if (!pair.allowed) throw tooMany(pair);
  const user = await verifyCredentials(db, input);
  await store.reset(pairKey, windowSeconds);
  return user;
}
