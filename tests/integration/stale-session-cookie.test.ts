import { getServerSession } from "next-auth";
import { encode } from "next-auth/jwt";
import { NextRequest } from "next/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { authOptions } from "@/lib/dashboard/next-auth-options";
import { sessionCookieName, sessionSecret } from "@/lib/auth/session";
import { log } from "@/lib/log";
import { proxy } from "@/proxy";
import { api, TEST_ORIGIN } from "../support/api";
import { withTestDatabase } from "../support/database";
import { createHost } from "../support/factories";

// A dashboard session cookie the service can no longer read (the secret rotated, another
// deployment on the same host name, plain garbage) is a signed-out visitor: the pages send them
// to sign in, the API answers 401, the log says so in one quiet line without the cookie, and the
// browser is told to drop the cookie so it stops coming back.

withTestDatabase();

const GARBAGE = "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..garbage-that-does-not-decrypt.AAAA";

/** A cookie next-auth would have issued under another secret (before a JWT_SECRET rotation). */
async function foreignCookie(userId: string): Promise<string> {
  return encode({ token: { sub: userId, sv: 0 }, secret: "the-secret-before-rotation-0123456789abcdef", maxAge: 3600 });
}

let lines: { level: string; args: unknown[] }[];
beforeEach(() => {
  lines = [];
  for (const level of ["error", "warn", "info", "fatal"] as const) {
    vi.spyOn(log, level).mockImplementation(((...args: unknown[]) => void lines.push({ level, args })) as never);
  }
});
afterEach(() => {
  vi.restoreAllMocks();
});

const errorLines = () => lines.filter((l) => l.level === "error" || l.level === "fatal");

/** The Set-Cookie headers that remove the session cookie. */
const removals = (headers: Headers) => headers.getSetCookie().filter((c) => c.startsWith(`${sessionCookieName()}=;`) && /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c));

describe("a stale or foreign session cookie", () => {
  it.each([["garbage", async () => GARBAGE], ["sealed under another secret", async () => foreignCookie((await createHost()).id)]])(
    "(%s) gets 401 JSON from the API, and the log has no error line",
    async (_what, make) => {
      const value = await make();
      const res = await api.get("/me", { headers: { cookie: `${sessionCookieName()}=${value}` } });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("unauthorized");
      expect(errorLines()).toEqual([]);
      expect(JSON.stringify(lines)).not.toContain(value);
    },
  );

  it("next-auth's session read (getServerSession, as the pages use it) answers signed out, clears the cookie, and logs one warn line without stack or cookie", async () => {
    const value = await foreignCookie((await createHost()).id);
    // getServerSession as the pages call it (there next-auth cannot set cookies: the proxy drops the
    // cookie instead), here with a response that keeps what next-auth would set.
    const setCookies: string[] = [];
    const res = { getHeader: () => setCookies, setHeader: (_name: string, value: string[]) => setCookies.splice(0, setCookies.length, ...value) };
    const session = await getServerSession({ headers: {}, cookies: { [sessionCookieName()]: value } } as never, res as never, authOptions());
    expect(session).toBeNull();
    expect(setCookies.filter((c) => c.startsWith(`${sessionCookieName()}=;`))).toHaveLength(1);
    expect(errorLines()).toEqual([]);
    const warned = lines.filter((l) => l.level === "warn");
    expect(warned).toEqual([{ level: "warn", args: [{ code: "JWT_SESSION_ERROR" }, expect.stringContaining("treated as signed out")] }]);
    expect(JSON.stringify(lines)).not.toContain(value);
    expect(JSON.stringify(lines)).not.toMatch(/stack|at .*\.js:\d+/);
  });

  it("the pages' proxy sends a dashboard visit to sign in and drops the cookie (chunks too); a readable cookie is left alone", async () => {
    const name = sessionCookieName();
    const visit = (path: string, cookie: string) => proxy(new NextRequest(`${TEST_ORIGIN}${path}`, { headers: { cookie } }));

    const dashboard = await visit("/dashboard/calendars?x=1", `${name}=${GARBAGE}; theme=dark`);
    expect(dashboard.status).toBe(307);
    expect(new URL(dashboard.headers.get("location")!).pathname).toBe("/login");
    expect(new URL(dashboard.headers.get("location")!).searchParams.get("callbackUrl")).toBe("/dashboard/calendars?x=1");
    expect(removals(dashboard.headers)).toHaveLength(1);
    // Only the session cookie goes.
    expect(dashboard.headers.getSetCookie().some((c) => c.startsWith("theme="))).toBe(false);

    // The home page and the login page stay where they are, and drop it too (chunked here).
    for (const path of ["/", "/login"]) {
      const page = await visit(path, `${name}.0=${GARBAGE.slice(0, 20)}; ${name}.1=${GARBAGE.slice(20)}`);
      expect(page.headers.get("location")).toBeNull();
      expect(page.headers.getSetCookie().map((c) => c.split("=")[0]).sort()).toEqual([`${name}.0`, `${name}.1`]);
    }

    const host = await createHost();
    const valid = await encode({ token: { sub: host.id, sv: 0 }, secret: sessionSecret(), maxAge: 3600 });
    const signedIn = await visit("/dashboard", `${name}=${valid}`);
    expect(signedIn.headers.get("location")).toBeNull();
    expect(signedIn.headers.getSetCookie()).toEqual([]);
    expect(errorLines()).toEqual([]);
  });
});
