import "server-only";
import { SignJWT, jwtVerify } from "jose";
import { getConfig } from "@/lib/config";

// HS256 only: the algorithm is pinned on verification so a token cannot choose its own.
const ALG = "HS256";
const ISSUER = "booking-service";

function key(): Uint8Array {
  return new TextEncoder().encode(getConfig().jwtSecret);
}

/**
 * Who a token or session speaks for, and the account's session version it was issued under
 * (`sv`): raising the version in the database ends every token issued before.
 */
export type Bearer = { userId: string; sessionVersion: number };

/** The `sv` claim as issued; tokens from before the claim existed count as version 0. */
export function sessionVersionOf(claim: unknown): number | null {
  if (claim === undefined) return 0;
  return typeof claim === "number" && Number.isInteger(claim) && claim >= 0 ? claim : null;
}

export async function signAccessToken(userId: string, sessionVersion: number): Promise<{ token: string; expiresIn: number }> {
  const expiresIn = getConfig().jwtExpiresIn;
  const token = await new SignJWT({ sv: sessionVersion })
    .setProtectedHeader({ alg: ALG, typ: "JWT" })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(`${expiresIn}s`)
    .sign(key());
  return { token, expiresIn };
}

/** Who a valid, unexpired token speaks for, or null. */
export async function verifyAccessToken(token: string): Promise<Bearer | null> {
  try {
    const { payload } = await jwtVerify(token, key(), { algorithms: [ALG], issuer: ISSUER, requiredClaims: ["exp", "sub"] });
    const sessionVersion = sessionVersionOf(payload.sv);
    return typeof payload.sub === "string" && sessionVersion !== null ? { userId: payload.sub, sessionVersion } : null;
  } catch {
    return null;
  }
}
