import { afterEach, describe, expect, it } from "vitest";
import { getConfig, setConfig } from "@/lib/config";
import { clientIp } from "./client-ip";

const original = getConfig();
afterEach(() => setConfig(original));

const request = (headers: Record<string, string>) => new Request("http://booking.test/", { headers });

describe("clientIp", () => {
  it("without TRUST_PROXY: the socket address server.mjs wrote, whatever X-Forwarded-For claims", () => {
    setConfig({ ...original, trustProxy: false });
    expect(clientIp(request({ "x-client-ip": "192.0.2.7", "x-forwarded-for": "203.0.113.9" }))).toBe("192.0.2.7");
  });

  it("with TRUST_PROXY: the last X-Forwarded-For entry, the one the proxy appended", () => {
    setConfig({ ...original, trustProxy: true });
    expect(clientIp(request({ "x-client-ip": "10.0.0.2", "x-forwarded-for": "203.0.113.9, 198.51.100.4" }))).toBe("198.51.100.4");
    expect(clientIp(request({ "x-client-ip": "10.0.0.2" }))).toBe("10.0.0.2");
  });

  it("without server.mjs (tests, next dev): falls back to X-Forwarded-For, then to one shared key", () => {
    setConfig({ ...original, trustProxy: false });
    expect(clientIp(request({ "x-forwarded-for": "203.0.113.9" }))).toBe("203.0.113.9");
    expect(clientIp(request({}))).toBe("unknown");
  });
});
