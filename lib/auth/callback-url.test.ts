import { describe, expect, it } from "vitest";
import { safeCallbackUrl } from "./callback-url";

describe("safeCallbackUrl", () => {
  it("keeps a path of this site, query included", () => {
    expect(safeCallbackUrl("/dashboard/bookings?page=2")).toBe("/dashboard/bookings?page=2");
  });
  it("takes the first of repeated values", () => {
    expect(safeCallbackUrl(["/dashboard/calendars", "//evil.example"])).toBe("/dashboard/calendars");
  });
  it.each([
    undefined,
    "",
    "https://evil.example/",
    "//evil.example",
    "/\\evil.example",
    "javascript:alert(1)",
    "dashboard",
    // Next.js hands the page the decoded query: /login?callbackUrl=/%09/evil.example gives "/\t/evil.example".
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/ /evil.example".replace(" ", "\u0000"),
    "/\\/evil.example",
    "/%2F%2Fevil.example".replace(/%2F/g, "/"),
  ])("refuses %j", (url) => {
    expect(safeCallbackUrl(url)).toBe("/dashboard");
  });
  it("never answers a value a browser would read as another origin", () => {
    for (const c of ["\t", "\n", "\r", "\\", "/"]) {
      const out = safeCallbackUrl(`/${c}/evil.example/x`);
      expect(new URL(out, "https://booking.example").origin).toBe("https://booking.example");
    }
  });
});
