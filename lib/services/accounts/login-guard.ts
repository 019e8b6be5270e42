import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "@/db";
import type { UserRow } from "@/db/schema";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { getRateLimitStore, type RateLimitPolicy, type RateLimitResult } from "@/lib/rate-limit";
import { verifyCredentials } from "./credentials";

// Password guessing, slowed down where it happens (decisions §8): at most 10 attempts per 15
// minutes for one (client address, email) pair, and LIMIT_LOGIN (default 100 per 15 minutes) per
// client address. Both counters are raised before the password is checked: raised after, a burst
// of parallel guesses would all be checked before the first failure was counted (250 were). A
// success then gives back what it took: the pair's failures are forgotten, and the address gets
// its one attempt back, so only failures add up there, and the people behind one office address
// are never locked out by their colleagues' logins. One back, not the address's whole count: a
// guesser who also holds an account of their own cannot wipe their failures by logging in.
// The pair is per address, so a guesser elsewhere cannot lock the real owner out. The counters
// live in the same store as the other limits (memory, PostgreSQL or Upstash), so several
// instances share them. Every way in (the API's /auth/login, the dashboard's session, and the
// password a sensitive change asks again) goes through here.

export const LOGIN_LIMITS = { pair: 10, windowSeconds: 15 * 60 } as const;

function tooMany(state: RateLimitResult, policy: RateLimitPolicy): AppError {
  return new AppError(
    "rate_limited",
    "Too many login attempts: wait a few minutes before trying again",
    { retryAfterSeconds: Math.max(1, state.resetSeconds) },
    { rateLimit: { ...state, policy } },
  );
}

export async function logInGuarded(db: Db, input: { email: string; password: string }, clientAddress: string): Promise<UserRow> {
  const config = getConfig();
  if (!config.rateLimits) return verifyCredentials(db, input);
  const store = await getRateLimitStore();
  // The email is hashed: counter keys end up in Redis or a table, and need not hold addresses.
  const pairKey = `login:pair:${clientAddress}:${createHash("sha256").update(input.email).digest("base64url")}`;
  const addressKey = `login:address:${clientAddress}`;
  const addressRule = config.addressLimits.login;

  if (addressRule) {
    const address = await store.hit(addressKey, addressRule.limit, addressRule.windowSeconds);
    if (!address.allowed) throw tooMany(address, { name: "login", windowSeconds: addressRule.windowSeconds });
  }
  const pair = await store.hit(pairKey, LOGIN_LIMITS.pair, LOGIN_LIMITS.windowSeconds);
  if (!pair.allowed) throw tooMany(pair, { name: "login-email", windowSeconds: LOGIN_LIMITS.windowSeconds });
  const user = await verifyCredentials(db, input);
  await Promise.all([
    store.reset(pairKey, LOGIN_LIMITS.windowSeconds),
    addressRule ? store.giveBack(addressKey, addressRule.windowSeconds) : undefined,
  ]);
  return user;
}
