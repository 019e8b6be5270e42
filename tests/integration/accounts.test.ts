import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { users } from "@/db/schema";
import { getConfig } from "@/lib/config";
import { api } from "../support/api";
import { withTestDatabase } from "../support/database";
import { createHost, unique } from "../support/factories";

withTestDatabase();

function registration(overrides: Record<string, unknown> = {}) {
  const username = unique("ada");
  return { email: `${username}@Example.COM`, password: "s3cret-enough", fullName: "Ada Lovelace", username, timezone: "Europe/London", ...overrides };
}

describe("POST /auth/register", () => {
  it("creates an account with a lower-cased email and emailVerified false", async () => {
    const body = registration();
    const res = await api.post("/auth/register", body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^usr_[A-Za-z0-9_-]{20,}$/),
      email: body.email.toLowerCase(),
      fullName: "Ada Lovelace",
      username: body.username,
      timezone: "Europe/London",
      emailVerified: false,
    });
    expect(JSON.stringify(res.body)).not.toContain("s3cret");
  });

  it("gives a new host Mon–Fri 09:00–17:00, 4 hours notice and a 60-day window", async () => {
    const host = await createHost({ timezone: "Asia/Kolkata" });
    const res = await api.get("/me/availability", { token: host.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      timezone: "Asia/Kolkata",
      minNoticeHours: 4,
      maxAdvanceDays: 60,
      weeklyRules: [1, 2, 3, 4, 5].map((dayOfWeek) => ({ dayOfWeek, startTime: "09:00", endTime: "17:00" })),
      dateOverrides: [],
    });
  });

  it.each([
    ["email", { email: "not-an-email" }],
    ["password", { password: "short" }],
    ["password", { password: "x".repeat(129) }],
    ["username", { username: "Has_Upper" }],
    ["username", { username: "ab" }],
    ["username", { username: "-leading" }],
    ["username", { username: "dashboard" }],
    ["fullName", { fullName: "" }],
    ["fullName", { fullName: "x".repeat(101) }],
    ["timezone", { timezone: "Mars/Olympus" }],
  ])("rejects a bad %s with 400 validation_error naming the field", async (field, overrides) => {
    const res = await api.post("/auth/register", registration(overrides));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("validation_error");
    expect(res.body.details.issues.map((i: { path: string }) => i.path)).toContain(field);
  });

  it("requires all five fields", async () => {
    const { timezone: _omit, ...rest } = registration();
    void _omit;
    const res = await api.post("/auth/register", rest);
    expect(res.status).toBe(400);
    expect(res.body.details.issues).toEqual([expect.objectContaining({ path: "timezone" })]);
  });

  it("accepts IANA aliases such as Asia/Calcutta and UTC", async () => {
    for (const timezone of ["Asia/Calcutta", "UTC"]) {
      expect((await api.post("/auth/register", registration({ timezone }))).status).toBe(201);
    }
  });

  it("answers 409 conflict for a taken email (any case) or username, and creates nothing", async () => {
    const first = registration();
    expect((await api.post("/auth/register", first)).status).toBe(201);
    const sameEmail = await api.post("/auth/register", registration({ email: first.email.toUpperCase() }));
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toMatchObject({ error: "conflict", details: { field: "email" } });
    const sameUsername = await api.post("/auth/register", registration({ username: first.username }));
    expect(sameUsername.status).toBe(409);
    expect(sameUsername.body).toMatchObject({ error: "conflict", details: { field: "username" } });
  });

  it("lets only one of two simultaneous sign-ups with the same email through", async () => {
    const body = registration();
    const results = await Promise.all([api.post("/auth/register", body), api.post("/auth/register", { ...body, username: unique("twin") })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it.each(["reschedule", "feeds", "embed", "metrics", "health", "dashboard", "cancel"])("the app's own path %s is a reserved username", async (username) => {
    const res = await api.post("/auth/register", { email: `${unique("r")}@example.com`, password: "long enough", fullName: "R", username, timezone: "UTC" });
    expect(res.status).toBe(400);
    expect(res.body.details.issues[0]).toEqual({ path: "username", message: "This username is reserved" });
  });
});

describe("POST /auth/login", () => {
  it("returns a bearer token that opens /me", async () => {
    const host = await createHost();
    const res = await api.post("/auth/login", { email: host.email.toUpperCase(), password: host.password });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      accessToken: expect.any(String),
      expiresIn: 86400,
      tokenType: "Bearer",
      user: { id: host.id, email: host.email, username: host.username, timezone: host.timezone },
    });
    const me = await api.get("/me", { token: res.body.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(host.id);
  });

  it("answers the same 401 for an unknown email and a wrong password", async () => {
    const host = await createHost();
    const wrong = await api.post("/auth/login", { email: host.email, password: "not the password" });
    const unknown = await api.post("/auth/login", { email: `nobody-${host.email}`, password: host.password });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error).toBe("unauthorized");
  });
});

describe("bearer tokens", () => {
  async function forge(sub: string, opts: { alg?: string; exp?: number; secret?: string } = {}) {
    const secret = new TextEncoder().encode(opts.secret ?? getConfig().jwtSecret);
    return new SignJWT({})
      .setProtectedHeader({ alg: opts.alg ?? "HS256" })
      .setSubject(sub)
      .setIssuer("booking-service")
      .setIssuedAt()
      .setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 600)
      .sign(secret);
  }

  it.each([
    ["no header", undefined],
    ["garbage", "not-a-jwt"],
  ])("rejects %s with 401 unauthorized", async (_name, token) => {
    const res = await api.get("/me", { token });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: "unauthorized", details: {} });
  });

  it("rejects expired tokens, tokens signed with another key or algorithm, and unsigned ones", async () => {
    const host = await createHost();
    const expired = await forge(host.id, { exp: Math.floor(Date.now() / 1000) - 10 });
    const otherKey = await forge(host.id, { secret: "x".repeat(48) });
    const hs512 = await forge(host.id, { alg: "HS512" });
    const header = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    const payload = Buffer.from(JSON.stringify({ sub: host.id, iss: "booking-service", exp: Math.floor(Date.now() / 1000) + 600 })).toString("base64url");
    for (const token of [expired, otherKey, hs512, `${header}.${payload}.`]) {
      expect((await api.get("/me", { token })).status).toBe(401);
    }
    expect((await api.get("/me", { token: await forge(host.id) })).status).toBe(200);
  });
});

describe("GET/PATCH /me", () => {
  it("returns the profile and updates name, timezone and avatar", async () => {
    const host = await createHost();
    const before = await api.get("/me", { token: host.token });
    expect(before.body).toEqual({
      id: host.id,
      email: host.email,
      fullName: "Test Host",
      username: host.username,
      timezone: host.timezone,
      avatarUrl: null,
      bio: null,
      language: "en",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    const patch = await api.patch("/me", { fullName: "Grace Hopper", timezone: "Europe/Berlin", avatarUrl: "https://img.example.com/g.png" }, { token: host.token });
    expect(patch.status).toBe(200);
    expect(patch.body).toEqual({ ...before.body, fullName: "Grace Hopper", timezone: "Europe/Berlin", avatarUrl: "https://img.example.com/g.png" });
    expect((await api.get("/me", { token: host.token })).body).toEqual(patch.body);
    // The availability timezone is the profile timezone.
    expect((await api.get("/me/availability", { token: host.token })).body.timezone).toBe("Europe/Berlin");
  });

  it("rejects bad values and unknown fields with 400 and changes nothing", async () => {
    const host = await createHost();
    const before = (await api.get("/me", { token: host.token })).body;
    for (const body of [{ timezone: "Nowhere/City" }, { avatarUrl: "javascript:alert(1)" }, { fullName: "" }, { email: "x@y.z" }, { fullName: "Ok", timezone: "Bad/Zone" }]) {
      const res = await api.patch("/me", body, { token: host.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("validation_error");
    }
    expect((await api.get("/me", { token: host.token })).body).toEqual(before);
  });

  it("clears the avatar with null", async () => {
    const host = await createHost();
    await api.patch("/me", { avatarUrl: "https://img.example.com/a.png" }, { token: host.token });
    const res = await api.patch("/me", { avatarUrl: null }, { token: host.token });
    expect(res.body.avatarUrl).toBeNull();
  });
});

describe("password storage", () => {
  it("keeps only an argon2id hash with OWASP's minimum cost (19 MiB, t=2)", async () => {
    const host = await createHost();
    const [row] = await (await getDb()).select().from(users).where(eq(users.id, host.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=\d+\$/);
    const [, m, t] = /m=(\d+),t=(\d+)/.exec(row!.passwordHash!)!;
    expect(Number(m)).toBeGreaterThanOrEqual(19456);
    expect(Number(t)).toBeGreaterThanOrEqual(2);
    expect(row!.passwordHash).not.toContain(host.password);
  });
});
