import { encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { sessionCookieName, sessionSecret } from "@/lib/auth/session";
import { api } from "../support/api";
import { withTestDatabase } from "../support/database";
import { createHost } from "../support/factories";

withTestDatabase();

const ORIGIN = "http://booking.test"; // APP_URL in tests/support/setup.ts

/** A dashboard session cookie as next-auth issues it. */
async function sessionCookie(userId: string, maxAge = 3600): Promise<string> {
  const value = await encode({ token: { sub: userId }, secret: sessionSecret(), maxAge });
  return `${sessionCookieName()}=${value}`;
}

describe("the API accepts the dashboard's session cookie as well as a bearer token", () => {
  it("reads with the cookie alone", async () => {
    const host = await createHost();
    const res = await api.get("/me", { headers: { cookie: await sessionCookie(host.id) } });
    expect(res.status).toBe(200);
    expect(res.body.username).toBe(host.username);
  });

  it("writes with the cookie only from the service's own origin (CSRF)", async () => {
    const host = await createHost();
    const cookie = await sessionCookie(host.id);
    const change = { fullName: "Changed By Cookie" };

    const noOrigin = await api.patch("/me", change, { headers: { cookie } });
    expect(noOrigin.status).toBe(403);
    expect(noOrigin.body.error).toBe("forbidden");
    const otherSite = await api.patch("/me", change, { headers: { cookie, origin: "https://evil.example" } });
    expect(otherSite.status).toBe(403);
    expect((await api.get("/me", { token: host.token })).body.fullName).not.toBe(change.fullName);

    const sameSite = await api.patch("/me", change, { headers: { cookie, origin: ORIGIN } });
    expect(sameSite.status).toBe(200);
    expect(sameSite.body.fullName).toBe(change.fullName);
    // A bearer token needs no Origin: another site cannot attach it.
    expect((await api.patch("/me", { fullName: "By Token" }, { token: host.token })).status).toBe(200);
  });

  it("refuses an expired, forged or foreign-key cookie with 401", async () => {
    const host = await createHost();
    // next-auth allows 15 s of clock skew.
    const expired = await sessionCookie(host.id, -60);
    expect((await api.get("/me", { headers: { cookie: expired } })).status).toBe(401);
    const forged = `${sessionCookieName()}=${await encode({ token: { sub: host.id }, secret: "another-secret", maxAge: 3600 })}`;
    expect((await api.get("/me", { headers: { cookie: forged } })).status).toBe(401);
    expect((await api.get("/me", { headers: { cookie: `${sessionCookieName()}=garbage` } })).status).toBe(401);
    expect((await api.get("/me", { headers: { cookie: "other=1" } })).status).toBe(401);
  });

  it("a bearer token wins over a cookie, and a bad bearer token is not rescued by a good cookie", async () => {
    const host = await createHost();
    const res = await api.get("/me", { headers: { cookie: await sessionCookie(host.id), authorization: "Bearer nope" } });
    expect(res.status).toBe(401);
  });
});
