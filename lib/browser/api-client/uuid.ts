// crypto.randomUUID exists only in secure contexts (https, localhost): a page opened at
// http://<LAN address>:3000 has crypto.getRandomValues but no randomUUID, and an
// Idempotency-Key must still be a UUID there.

type RandomSource = Pick<Crypto, "getRandomValues"> & { randomUUID?: () => string };

/** A version 4 UUID (RFC 9562 §5.4) from 16 random bytes. */
export function uuidV4FromRandomValues(source: Pick<Crypto, "getRandomValues">): string {
  const bytes = source.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // variant 10xx
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A random UUID v4: the platform's where it has one, else built from getRandomValues. */
export function randomUuid(source: RandomSource = globalThis.crypto): string {
  return typeof source.randomUUID === "function" ? source.randomUUID() : uuidV4FromRandomValues(source);
}
