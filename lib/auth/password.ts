import "server-only";
import { hash, verify } from "@node-rs/argon2";

// argon2id with OWASP's minimum: 19 MiB memory, 2 iterations, 1 lane.
// (`algorithm: 2` is Argon2id; the package exports it only as a const enum.)
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verified against when the email is unknown, so a failed login costs the same time either way
// and response timing does not reveal which emails have accounts.
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword("not-a-real-password-but-the-same-cost");
  await verifyPassword(await dummyHash, password);
}
