import { describe, expect, it } from "vitest";
import { LOGIN_LIMITS } from "@/lib/services/accounts/login-guard";
import { api } from "../support/api";
import { withTestDatabase } from "../support/database";
import { createHost, unique } from "../support/factories";

withTestDatabase();

let addressCounter = 0;
/** A client address of this test's own (in-process, the address comes from X-Forwarded-For). */
function address(): string {
  addressCounter += 1;
  return `203.0.113.${addressCounter}`;
}
const from = (ip: string) => ({ headers: { "x-forwarded-for": ip } });

describe("login protection", () => {
  it(`allows ${LOGIN_LIMITS.pair} failures per address and email, then 429 with Retry-After; the owner elsewhere is not locked out`, async () => {
    const host = await createHost();
    const attacker = address();
    for (let i = 0; i < LOGIN_LIMITS.pair; i++) {
      const res = await api.post("/auth/login", { email: host.email, password: `guess-${i}` }, from(attacker));
      expect(res.status).toBe(401);
    }
    const blocked = await api.post("/auth/login", { email: host.email, password: host.password }, from(attacker));
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe("rate_limited");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(blocked.headers.get("retry-after"))).toBeLessThanOrEqual(LOGIN_LIMITS.windowSeconds);

    const owner = await api.post("/auth/login", { email: host.email, password: host.password }, from(address()));
    expect(owner.status).toBe(200);
  });

  it("a success clears the pair's failures", async () => {
    const host = await createHost();
    const ip = address();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < LOGIN_LIMITS.pair - 1; i++) {
        expect((await api.post("/auth/login", { email: host.email, password: "wrong-password" }, from(ip))).status).toBe(401);
      }
      expect((await api.post("/auth/login", { email: host.email, password: host.password }, from(ip))).status).toBe(200);
    }
  });

  it(`limits one address to ${LOGIN_LIMITS.address} attempts across emails, however many arrive at once`, async () => {
    // The counters' windows are fixed 15-minute spans: a burst during which one ended is run
    // again from a new address (it counts in two windows, which is the limit working).
    const windowOf = () => Math.floor(Date.now() / (LOGIN_LIMITS.windowSeconds * 1000));
    for (let attempt = 1; ; attempt++) {
      const ip = address();
      const began = windowOf();
      // Counted before the password check: when the count was raised after it, all 250 were checked.
      const attempts = await Promise.all(
        Array.from({ length: 250 }, (_, i) => api.post("/auth/login", { email: `${unique("nobody")}-${i}@example.com`, password: "x" }, from(ip))),
      );
      const next = await api.post("/auth/login", { email: `${unique("nobody")}@example.com`, password: "x" }, from(ip));
      if (windowOf() !== began && attempt < 2) continue;
      expect(attempts.filter((r) => r.status === 401)).toHaveLength(LOGIN_LIMITS.address);
      expect(attempts.filter((r) => r.status === 429)).toHaveLength(250 - LOGIN_LIMITS.address);
      expect(next.status).toBe(429);
      break;
    }
    // Another address is unaffected.
    expect((await api.post("/auth/login", { email: `${unique("nobody")}@example.com`, password: "x" }, from(address()))).status).toBe(401);
  });

  it("parallel guesses cannot slip past the pair limit", async () => {
    const host = await createHost();
    const ip = address();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => api.post("/auth/login", { email: host.email, password: `parallel-${i}` }, from(ip))),
    );
    expect(results.filter((r) => r.status === 401)).toHaveLength(LOGIN_LIMITS.pair);
    expect(results.filter((r) => r.status === 429)).toHaveLength(30 - LOGIN_LIMITS.pair);
  });

  it("an unknown email answers exactly like a wrong password", async () => {
    const host = await createHost();
    const wrong = await api.post("/auth/login", { email: host.email, password: "wrong-password" }, from(address()));
    const unknown = await api.post("/auth/login", { email: `${unique("ghost")}@example.com`, password: "wrong-password" }, from(address()));
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
  });
});
