import { describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { LOGIN_LIMITS } from "@/lib/services/accounts/login-guard";
import { api } from "../support/api";
import { withTestDatabase } from "../support/database";
import { createHost, unique } from "../support/factories";
import { configure } from "../support/jobs";

withTestDatabase();

let addressCounter = 0;
/** A client address of this test's own (in-process, the address comes from X-Forwarded-For). */
function address(): string {
  addressCounter += 1;
  return `203.0.113.${addressCounter}`;
}
const from = (ip: string) => ({ headers: { "x-forwarded-for": ip } });

/**
 * Runs `steps` from a new address of its own; the counters' windows are fixed spans, so a run
 * during which one ended (its attempts count in two windows) is run once more from another.
 */
async function inOneWindow(windowSeconds: number, steps: (ip: string) => Promise<void>) {
  const windowOf = () => Math.floor(Date.now() / (windowSeconds * 1000));
  for (let attempt = 1; ; attempt++) {
    const began = windowOf();
    try {
      await steps(address());
      return;
    } catch (error) {
      if (windowOf() === began || attempt >= 2) throw error;
    }
  }
}

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

  it("limits one address to LIMIT_LOGIN's failures across emails (default 100 per 15 minutes), however many arrive at once", async () => {
    const rule = getConfig().addressLimits.login!;
    expect(rule).toEqual({ limit: 100, windowSeconds: 900 });
    // The counters' windows are fixed 15-minute spans: a burst during which one ended is run
    // again from a new address (it counts in two windows, which is the limit working).
    const windowOf = () => Math.floor(Date.now() / (rule.windowSeconds * 1000));
    for (let attempt = 1; ; attempt++) {
      const ip = address();
      const began = windowOf();
      // Counted before the password check: when the count was raised after it, all 250 were checked.
      const attempts = await Promise.all(
        Array.from({ length: 250 }, (_, i) => api.post("/auth/login", { email: `${unique("nobody")}-${i}@example.com`, password: "x" }, from(ip))),
      );
      const next = await api.post("/auth/login", { email: `${unique("nobody")}@example.com`, password: "x" }, from(ip));
      if (windowOf() !== began && attempt < 2) continue;
      expect(attempts.filter((r) => r.status === 401)).toHaveLength(rule.limit);
      expect(attempts.filter((r) => r.status === 429)).toHaveLength(250 - rule.limit);
      expect(next.status).toBe(429);
      break;
    }
    // Another address is unaffected.
    expect((await api.post("/auth/login", { email: `${unique("nobody")}@example.com`, password: "x" }, from(address()))).status).toBe(401);
  });

  it("successful logins give their count back: 120 from one address under LIMIT_LOGIN=10/15m are all let in, and failures are still stopped at 10", async () => {
    configure({ addressLimits: { ...getConfig().addressLimits, login: { limit: 10, windowSeconds: 900 } } });
    // An office: three colleagues behind one address, logging in again and again.
    const office = [await createHost(), await createHost(), await createHost()];
    await inOneWindow(900, async (ip) => {
      for (let i = 0; i < 120; i++) {
        const who = office[i % office.length]!;
        const res = await api.post("/auth/login", { email: who.email, password: who.password }, from(ip));
        expect(res.status, `login ${i + 1}: ${JSON.stringify(res.body)}`).toBe(200);
      }
      // Failures still add up (each for another email, so the pair limit is not what stops them).
      for (let i = 0; i < 10; i++) {
        expect((await api.post("/auth/login", { email: `${unique("nobody")}@example.com`, password: "x" }, from(ip))).status).toBe(401);
      }
      const refused = await api.post("/auth/login", { email: office[0]!.email, password: office[0]!.password }, from(ip));
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe("rate_limited");
      // Another address is not held up by this one's failures.
      expect((await api.post("/auth/login", { email: office[0]!.email, password: office[0]!.password }, from(address()))).status).toBe(200);
    });
  });

  it("a success gives back only its own attempt: failures before it still count (a guesser's own login wipes nothing)", async () => {
    configure({ addressLimits: { ...getConfig().addressLimits, login: { limit: 5, windowSeconds: 900 } } });
    const host = await createHost();
    await inOneWindow(900, async (ip) => {
      for (let i = 0; i < 4; i++) {
        expect((await api.post("/auth/login", { email: `${unique("nobody")}@example.com`, password: "x" }, from(ip))).status).toBe(401);
      }
      expect((await api.post("/auth/login", { email: host.email, password: host.password }, from(ip))).status).toBe(200);
      expect((await api.post("/auth/login", { email: `${unique("nobody")}@example.com`, password: "x" }, from(ip))).status).toBe(401);
      expect((await api.post("/auth/login", { email: host.email, password: host.password }, from(ip))).status).toBe(429);
    });
  });

  it("LIMIT_LOGIN=off lifts the address figure; the pair limit stays", async () => {
    configure({ addressLimits: { ...getConfig().addressLimits, login: undefined } });
    const host = await createHost();
    await inOneWindow(LOGIN_LIMITS.windowSeconds, async (ip) => {
      for (let i = 0; i < 120; i++) {
        expect((await api.post("/auth/login", { email: `${unique("nobody")}-${i}@example.com`, password: "x" }, from(ip))).status).toBe(401);
      }
      for (let i = 0; i < LOGIN_LIMITS.pair; i++) {
        expect((await api.post("/auth/login", { email: host.email, password: "wrong-password" }, from(ip))).status).toBe(401);
      }
      expect((await api.post("/auth/login", { email: host.email, password: host.password }, from(ip))).status).toBe(429);
    });
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
