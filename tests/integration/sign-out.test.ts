import { encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { sessionCookieName, sessionSecret } from "@/lib/auth/session";
import { api } from "../support/api";
import { withTestDatabase } from "../support/database";
import { createHost, type TestHost } from "../support/factories";

withTestDatabase();

const ORIGIN = "http://booking.test"; // APP_URL in tests/support/setup.ts

/** A dashboard session cookie as next-auth issues it at sign-in (session version `sv`). */
async function sessionCookie(userId: string, sv: number): Promise<string> {
  const value = await encode({ token: { sub: userId, sv }, secret: sessionSecret(), maxAge: 3600 });
  return `${sessionCookieName()}=${value}`;
}

const loginAgain = async (host: TestHost, password = host.password) =>
  api.post("/auth/login", { email: host.email, password }, { headers: { "x-forwarded-for": "192.0.2.200" } });

describe("sign out everywhere (POST /auth/logout)", () => {
  it("ends every bearer token and dashboard session of the account at once, and only that account's", async () => {
    const host = await createHost();
    const other = await createHost();
    const second = (await loginAgain(host)).body.accessToken as string;
    const cookie = await sessionCookie(host.id, 0);
    expect((await api.get("/me", { headers: { cookie } })).status).toBe(200);

    const out = await api.post("/auth/logout", undefined, { token: host.token });
    expect(out.status).toBe(204);

    // Stateless tokens with 24 h left: before, every one of them still worked.
    for (const auth of [{ token: host.token }, { token: second }, { headers: { cookie } }]) {
      const res = await api.get("/me", auth);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("unauthorized");
    }
    expect((await api.get("/me", { token: other.token })).status).toBe(200);

    // A new login gets a token that works; the old ones stay dead.
    const fresh = (await loginAgain(host)).body.accessToken as string;
    expect((await api.get("/me", { token: fresh })).status).toBe(200);
    expect((await api.get("/me", { token: second })).status).toBe(401);
    // A session cookie issued after the sign-out carries the new version.
    expect((await api.get("/me", { headers: { cookie: await sessionCookie(host.id, 1) } })).status).toBe(200);
  });

  it("works from the dashboard's cookie (same origin only) and needs a session", async () => {
    const host = await createHost();
    const cookie = await sessionCookie(host.id, 0);
    expect((await api.post("/auth/logout", undefined, { headers: { cookie, origin: "https://evil.example" } })).status).toBe(403);
    expect((await api.get("/me", { token: host.token })).status).toBe(200);
    expect((await api.post("/auth/logout", undefined, { headers: { cookie, origin: ORIGIN } })).status).toBe(204);
    expect((await api.get("/me", { token: host.token })).status).toBe(401);
    expect((await api.post("/auth/logout")).status).toBe(401);
  });
});

describe("changing the password (POST /me/password)", () => {
  it("ends every earlier token and session, answers with a new token, and the new password logs in", async () => {
    const host = await createHost();
    const cookie = await sessionCookie(host.id, 0);
    const res = await api.post("/me/password", { currentPassword: host.password, newPassword: "a brand new secret" }, { token: host.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ tokenType: "Bearer", user: { id: host.id } });

    expect((await api.get("/me", { token: host.token })).status).toBe(401);
    expect((await api.get("/me", { headers: { cookie } })).status).toBe(401);
    expect((await api.get("/me", { token: res.body.accessToken })).status).toBe(200);
    expect((await loginAgain(host)).status).toBe(401);
    expect((await loginAgain(host, "a brand new secret")).status).toBe(200);
  });

  it("refuses a wrong current password or a short new one with 400 at the field, changing nothing", async () => {
    const host = await createHost();
    const wrong = await api.post("/me/password", { currentPassword: "not my password", newPassword: "a brand new secret" }, { token: host.token });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details.issues).toEqual([{ path: "currentPassword", message: "The current password is incorrect" }]);
    const short = await api.post("/me/password", { currentPassword: host.password, newPassword: "short" }, { token: host.token });
    expect(short.status).toBe(400);
    expect(short.body.details.issues).toEqual([{ path: "newPassword", message: "Must be at least 8 characters" }]);
    expect((await api.get("/me", { token: host.token })).status).toBe(200);
    expect((await loginAgain(host)).status).toBe(200);
  });
});
