import { describe, expect, it } from "vitest";
import { isSignedByProvider, requestSignature } from "./provider";

// Twilio's published example (its security documentation, and the request-validator tests of
// its SDKs): auth token 12345, this URL and these fields sign to this value.
const TOKEN = "12345";
const URL = "https://mycompany.com/myapp.php?foo=1&bar=2";
const FIELDS: [string, string][] = [
  ["CallSid", "CA1234567890ABCDE"],
  ["Caller", "+14158675309"],
  ["Digits", "1234"],
  ["From", "+14158675309"],
  ["To", "+18005551212"],
];

describe("the provider's request signature", () => {
  it("reproduces Twilio's published example, whatever order the fields come in", () => {
    expect(requestSignature(TOKEN, URL, FIELDS)).toBe("RSOYDt4T1cUTdK1PDd93/VVr8B8=");
    expect(requestSignature(TOKEN, URL, [...FIELDS].reverse())).toBe("RSOYDt4T1cUTdK1PDd93/VVr8B8=");
  });

  it("signs a repeated field once per distinct value, values sorted (Twilio's validators' example)", () => {
    const repeated = new URLSearchParams("Sid=CA123&SidAccount=AC123&Digits=5678&Digits=1234&Digits=1234");
    expect(requestSignature(TOKEN, URL, repeated)).toBe("IK+Dwps556ElfBT0I3Rgjkr1wJU=");
  });

  it("verifies the right signature only: another token, URL, field or value fails", () => {
    const good = "RSOYDt4T1cUTdK1PDd93/VVr8B8=";
    expect(isSignedByProvider(TOKEN, URL, FIELDS, good)).toBe(true);
    expect(isSignedByProvider("54321", URL, FIELDS, good)).toBe(false);
    expect(isSignedByProvider(TOKEN, `${URL}&baz=3`, FIELDS, good)).toBe(false);
    expect(isSignedByProvider(TOKEN, URL, [...FIELDS, ["CallStatus", "completed"]], good)).toBe(false);
    expect(isSignedByProvider(TOKEN, URL, FIELDS.map(([k, v]) => [k, k === "Digits" ? "9999" : v]), good)).toBe(false);
    expect(isSignedByProvider(TOKEN, URL, FIELDS, null)).toBe(false);
    expect(isSignedByProvider(TOKEN, URL, FIELDS, "")).toBe(false);
    expect(isSignedByProvider(TOKEN, URL, FIELDS, good.slice(0, -1))).toBe(false);
  });
});
