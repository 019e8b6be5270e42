import { webcrypto } from "node:crypto";
import { describe, expect, it } from "vitest";
import { randomUuid, uuidV4FromRandomValues } from "./uuid";

// What a page on an insecure origin (http://192.168.x.y:3000) has: getRandomValues, no randomUUID.
const insecure = { getRandomValues: <T extends ArrayBufferView | null>(array: T) => webcrypto.getRandomValues(array as Uint8Array) as unknown as T };
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("randomUuid", () => {
  it("falls back to getRandomValues where randomUUID is missing", () => {
    expect("randomUUID" in insecure).toBe(false);
    expect(randomUuid(insecure)).toMatch(UUID_V4);
  });

  it("sets the version (4) and variant (10xx) bits whatever the random bytes are", () => {
    for (const fill of [0x00, 0xff, 0xaa, 0x55]) {
      const id = uuidV4FromRandomValues({ getRandomValues: <T extends ArrayBufferView | null>(a: T) => ((a as Uint8Array).fill(fill), a) });
      expect(id).toMatch(UUID_V4);
      const hex = id.replaceAll("-", "");
      expect(parseInt(hex[12]!, 16)).toBe(4);
      expect(parseInt(hex[16]!, 16) >> 2).toBe(0b10);
    }
    expect(uuidV4FromRandomValues({ getRandomValues: <T extends ArrayBufferView | null>(a: T) => ((a as Uint8Array).fill(0), a) })).toBe(
      "00000000-0000-4000-8000-000000000000",
    );
  });

  it("gives distinct ids (10 000 draws)", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => randomUuid(insecure)));
    expect(ids.size).toBe(10_000);
  });

  it("uses the platform's randomUUID where there is one", () => {
    const platform = { getRandomValues: insecure.getRandomValues, randomUUID: () => "11111111-2222-4333-8444-555555555555" };
    expect(randomUuid(platform)).toBe("11111111-2222-4333-8444-555555555555");
    expect(randomUuid()).toMatch(UUID_V4);
  });
});
