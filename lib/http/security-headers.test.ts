import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, isEmbeddedBookingPage, securityHeaders } from "./security-headers.mjs";

describe("security headers", () => {
  it("frame nothing by default, never allow eval outside development", () => {
    const { all } = securityHeaders();
    expect(all["x-frame-options"]).toBe("DENY");
    expect(all["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(all["content-security-policy"]).not.toContain("unsafe-eval");
    expect(contentSecurityPolicy("'none'", true)).toContain("'unsafe-eval'");
  });

  it.each([
    ["/ana/intro?embed=1", true],
    ["/ana/intro/?embed=1", true],
    ["/ana-2/intro?x=1&embed=1", true],
    ["/ana/intro?embed=0&embed=1", true],
    ["/ana/intro?embed=1&embed=0", false],
    ["/ana/intro", false],
    ["/ana/intro?embed=2", false],
    ["/ana?embed=1", false],
    ["/ana/intro/more?embed=1", false],
    ["/dashboard/bookings?embed=1", false],
    ["/api/v1?embed=1", false],
    ["/_next/static?embed=1", false],
    ["/cancel/token?embed=1", false],
    ["/reschedule/token?embed=1", false],
  ])("%s may be framed by any site: %s", (url, embeddable) => {
    expect(isEmbeddedBookingPage(url)).toBe(embeddable);
  });
});
