import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { getConfig, setConfig } from "@/lib/config";
import { open, seal } from "./secret-box";

describe("secret box", () => {
  const original = getConfig();
  afterEach(() => setConfig(original));

  it("opens what it sealed, for the same purpose only, and never shows the plain text", () => {
    const sealed = seal("the-token", "cancel-token");
    expect(sealed).not.toContain("the-token");
    expect(sealed).not.toContain(Buffer.from("the-token").toString("base64url"));
    expect(open(sealed, "cancel-token")).toBe("the-token");
    expect(open(sealed, "calendar-password")).toBeUndefined();
    expect(seal("the-token", "cancel-token")).not.toBe(sealed); // a fresh IV each time
  });

  it("refuses a tampered value and a value sealed under another key", () => {
    const sealed = seal("secret", "p");
    const parts = sealed.split(".");
    const body = Buffer.from(parts[3]!, "base64url");
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString("base64url");
    expect(open(parts.join("."), "p")).toBeUndefined();
    expect(open("garbage", "p")).toBeUndefined();

    setConfig({ ...original, encryptionKey: randomBytes(32) });
    expect(open(sealed, "p")).toBeUndefined();
  });
});
