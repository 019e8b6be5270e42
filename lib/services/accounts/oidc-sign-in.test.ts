import { describe, expect, it } from "vitest";
import { USERNAME_FORMAT } from "@/lib/schemas/account";
import { claimsOf, usernameBase } from "./oidc-sign-in";

describe("a new OIDC host's username", () => {
  it.each([
    ["ada.lovelace@acme.test", "ada-lovelace"],
    ["Ada_Lovelace+work@acme.test", "ada-lovelace-work"],
    ["josé.müller@acme.test", "jose-muller"],
    ["--x--@acme.test", "host-x"],
    ["李@acme.test", "host-new"],
    [`${"a".repeat(60)}@acme.test`, "a".repeat(34)],
  ])("%s → %s", (email, username) => {
    expect(usernameBase(email)).toBe(username);
    expect(USERNAME_FORMAT.test(`${usernameBase(email)}-12`)).toBe(true);
  });
});

describe("the claims read from the provider", () => {
  it("needs issuer and subject, lower-cases the email, and counts only a JSON true as verified", () => {
    expect(claimsOf({ sub: "1" })).toBeUndefined();
    expect(claimsOf({ iss: "https://id.test", sub: "1", email: "Ada@Acme.Test", email_verified: true, given_name: "Ada", family_name: "L" })).toMatchObject({
      email: "ada@acme.test",
      emailVerified: true,
      name: "Ada L",
    });
    expect(claimsOf({ iss: "https://id.test", sub: "1", email: "a@b.test", email_verified: "true" })?.emailVerified).toBe(false);
    expect(claimsOf({ iss: "https://id.test", sub: "1", email: 42 })?.email).toBeUndefined();
  });
});
