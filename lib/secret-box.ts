import "server-only";
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { getConfig } from "@/lib/config";

// Secrets the service must read back later (a guest's cancel token inside a stored idempotent
// answer; calendar credentials) are sealed with AES-256-GCM under ENCRYPTION_KEY. Each sealed
// value names the key that sealed it (a short id derived from the key), so the key can rotate:
// values sealed under an older key still open while it is kept in the keyring.
// Format: v1.<keyId>.<iv>.<ciphertext>.<tag>, base64url parts. `purpose` is bound as additional
// data: a value sealed for one use does not open for another.

const VERSION = "v1";

function keyIdOf(key: Buffer): string {
  return createHash("sha256").update("booking-key-id:").update(key).digest("hex").slice(0, 8);
}

function keyring(): Map<string, Buffer> {
  const key = getConfig().encryptionKey;
  return new Map([[keyIdOf(key), key]]);
}

/** The id sealed values name for the current key (a hash prefix, not the key): lib/ops compares it with stored ones. */
export function currentKeyId(): string {
  return keyIdOf(getConfig().encryptionKey);
}

/** The key id a sealed value names, or undefined when it is not a sealed value. */
export function keyIdOfSealed(sealed: string): string | undefined {
  const [version, keyId] = sealed.split(".");
  return version === VERSION && keyId ? keyId : undefined;
}

export function seal(plain: string, purpose: string): string {
  const key = getConfig().encryptionKey;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, keyIdOf(key), iv.toString("base64url"), body.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(".");
}

/** The plain text, or undefined when the value is malformed, tampered with, or sealed under an unknown key. */
export function open(sealed: string, purpose: string): string | undefined {
  const [version, keyId, iv, body, tag] = sealed.split(".");
  if (version !== VERSION || !keyId || iv === undefined || body === undefined || tag === undefined) return undefined;
  const key = keyring().get(keyId);
  if (!key) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
