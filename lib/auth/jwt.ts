import { SignJWT, jwtVerify } from "jose";
import { getConfig } from "@/lib/config";

// HS256 only: the algorithm is pinned on verification so a token cannot choose its own.
const ALG = "HS256";
const ISSUER = "booking-service";

function key(): Uint8Array {
  return new TextEncoder().encode(getConfig().jwtSecret);
}

export async function signAccessToken(userId: string): Promise<{ token: string; expiresIn: number }> {
  const expiresIn = getConfig().jwtExpiresIn;
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: ALG, typ: "JWT" })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(`${expiresIn}s`)
    .sign(key());
  return { token, expiresIn };
}

/** The user id of a valid, unexpired token, or null. */
export async function verifyAccessToken(token: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, key(), { algorithms: [ALG], issuer: ISSUER, requiredClaims: ["exp", "sub"] });
    return typeof payload.sub === "string" ? payload.sub : null;
  } catch {
    return null;
  }
}
