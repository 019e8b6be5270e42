import { describe, expect, it } from "vitest";
import { safeCallbackUrl } from "./callback-url";

describe("safeCallbackUrl", () => {
  it("keeps a path of this site, query included", () => {
    expect(safeCallbackUrl("/dashboard/bookings?page=2")).toBe("/dashboard/bookings?page=2");
  });
  it.each([undefined, "", "https://evil.example/", "//evil.example", "/\\evil.example", "javascript:alert(1)", "dashboard"])("refuses %s", (url) => {
    expect(safeCallbackUrl(url)).toBe("/dashboard");
  });
});
