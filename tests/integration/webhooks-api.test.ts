import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { webhooks } from "@/db/schema";
import { api, call } from "../support/api";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { configure } from "../support/jobs";
import { createTeam, createTeamEventType, join, teamWithType } from "../support/teams";

withTestDatabase();

const ALL_EVENTS = ["booking.created", "booking.cancelled", "booking.rescheduled", "booking.confirmed", "booking.no_show_updated", "booking.paid", "booking.refunded"];

async function createWebhook(host: TestHost, body: Record<string, unknown> = {}) {
  const res = await api.post("/me/webhooks", { url: "https://hooks.example.com/booking", ...body }, { token: host.token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe("webhooks: create, read, change, remove", () => {
  it("creates one with a whsec_ secret shown once and kept only sealed", async () => {
    const host = await createHost();
    const created = await createWebhook(host);
    expect(created).toEqual({
      id: expect.stringMatching(/^whk_[A-Za-z0-9_-]{20,}$/),
      url: "https://hooks.example.com/booking",
      events: ALL_EVENTS,
      eventTypeIds: null,
      isActive: true,
      disabledReason: null,
      previousSecretExpiresAt: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      updatedAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(created.secret.slice("whsec_".length), "base64")).toHaveLength(32);

    const list = await api.get("/me/webhooks", { token: host.token });
    expect(list.status).toBe(200);
    const { secret: _secret, ...shown } = created;
    void _secret;
    expect(list.body).toEqual({ data: [shown] });
    expect(JSON.stringify(list.body)).not.toContain("whsec_");
    expect((await api.get(`/me/webhooks/${created.id}`, { token: host.token })).body).toEqual(shown);

    const [row] = await (await getDb()).select().from(webhooks).where(eq(webhooks.id, created.id));
    expect(row!.secretEncrypted).toMatch(/^v1\./);
    expect(row!.secretEncrypted).not.toContain(created.secret.slice(6, 20));
  });

  it("takes a subset of the events, and refuses bad input with 400 and nothing saved", async () => {
    const host = await createHost();
    expect((await createWebhook(host, { events: ["booking.cancelled"] })).events).toEqual(["booking.cancelled"]);
    const bad: [unknown, string][] = [
      [{}, "url"],
      [{ url: "" }, "url"],
      [{ url: "not a url" }, "url"],
      [{ url: "ftp://hooks.example.com/" }, "url"],
      [{ url: "https://user:pw@hooks.example.com/" }, "url"],
      [{ url: `https://hooks.example.com/${"a".repeat(2048)}` }, "url"],
      [{ url: "https://hooks.example.com/\u0000" }, "url"],
      [{ url: "https://hooks.example.com/", events: [] }, "events"],
      [{ url: "https://hooks.example.com/", events: ["booking.deleted"] }, "events.0"],
      [{ url: "https://hooks.example.com/", events: ["booking.created", "booking.created"] }, "events"],
      [{ url: "https://hooks.example.com/", secret: "whsec_mine" }, "secret"],
    ];
    for (const [body, path] of bad) {
      const res = await api.post("/me/webhooks", body, { token: host.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("validation_error");
      expect(res.body.details.issues.map((i: { path: string }) => i.path), JSON.stringify(body)).toContain(path);
    }
    const malformed = await call("POST", "/me/webhooks", { token: host.token, rawBody: "{", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    expect((await api.get("/me/webhooks", { token: host.token })).body.data).toHaveLength(1);
  });

  it("refuses private, loopback and link-local targets at url, unless WEBHOOKS_ALLOW_PRIVATE", async () => {
    const host = await createHost();
    const targets = [
      "http://127.0.0.1:8080/hook",
      "http://10.0.0.5/hook",
      "http://172.16.0.1/",
      "http://192.168.1.20/",
      "http://[::1]/hook",
      "http://169.254.169.254/latest/meta-data/",
      "http://0.0.0.0/",
      "http://100.64.0.1/",
      "http://[::ffff:127.0.0.1]/",
      "http://[fd00::1]/",
      "http://[fe80::1]/",
      "http://2130706433/",
      "http://localhost:3000/",
      // IPv4-compatible IPv6 (::/96): the metadata address and loopback in another dress.
      "http://[::a9fe:a9fe]/latest/meta-data/",
      "http://[::7f00:1]/",
      "http://[::127.0.0.1]/",
    ];
    for (const url of targets) {
      const res = await api.post("/me/webhooks", { url }, { token: host.token });
      expect(res.status, url).toBe(400);
      expect(res.body.details.issues, url).toEqual([{ path: "url", message: expect.stringMatching(/private|loopback|this machine/) }]);
    }
    expect((await api.get("/me/webhooks", { token: host.token })).body.data).toEqual([]);

    configure({ webhooksAllowPrivate: true });
    expect((await createWebhook(host, { url: "http://127.0.0.1:8080/hook" })).url).toBe("http://127.0.0.1:8080/hook");
  });

  it("changes url, events and isActive; a private url is refused on update too, leaving it unchanged", async () => {
    const host = await createHost();
    const created = await createWebhook(host);
    const changed = await api.patch(`/me/webhooks/${created.id}`, { url: "https://other.example.org/in", events: ["booking.rescheduled"] }, { token: host.token });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: created.id, url: "https://other.example.org/in", events: ["booking.rescheduled"], isActive: true });

    const refused = await api.patch(`/me/webhooks/${created.id}`, { url: "http://10.1.2.3/" }, { token: host.token });
    expect(refused.status).toBe(400);
    expect(refused.body.details.issues[0].path).toBe("url");
    const invalid = await api.patch(`/me/webhooks/${created.id}`, { isActive: "no" }, { token: host.token });
    expect(invalid.status).toBe(400);
    expect((await api.get(`/me/webhooks/${created.id}`, { token: host.token })).body.url).toBe("https://other.example.org/in");

    const off = await api.patch(`/me/webhooks/${created.id}`, { isActive: false }, { token: host.token });
    expect(off.body.isActive).toBe(false);
    const test = await api.post(`/me/webhooks/${created.id}/test`, undefined, { token: host.token });
    expect(test.status).toBe(409);
    expect((await api.patch(`/me/webhooks/${created.id}`, {}, { token: host.token })).body.isActive).toBe(false);

    expect((await api.delete(`/me/webhooks/${created.id}`, { token: host.token })).status).toBe(204);
    expect((await api.get(`/me/webhooks/${created.id}`, { token: host.token })).status).toBe(404);
    expect((await api.delete(`/me/webhooks/${created.id}`, { token: host.token })).status).toBe(404);
  });

  it("rotates the secret: a new one shown once, the old one signing for 24 more hours", async () => {
    const host = await createHost();
    const created = await createWebhook(host);
    const before = Date.now();
    const rotated = await api.post(`/me/webhooks/${created.id}/rotate-secret`, undefined, { token: host.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);
    const expires = Date.parse(rotated.body.previousSecretExpiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(24 * 3_600_000 - 1_000);
    expect(expires - before).toBeLessThanOrEqual(24 * 3_600_000 + 60_000);
    expect((await api.get(`/me/webhooks/${created.id}`, { token: host.token })).body.previousSecretExpiresAt).toBe(rotated.body.previousSecretExpiresAt);
  });

  it("queues a test message, and lists deliveries in pages", async () => {
    const host = await createHost();
    const created = await createWebhook(host);
    const test = await api.post(`/me/webhooks/${created.id}/test`, undefined, { token: host.token });
    expect(test.status).toBe(202);
    expect(test.body).toEqual({ messageId: expect.stringMatching(/^msg_/), type: "webhook.test" });
    const deliveries = await api.get(`/me/webhooks/${created.id}/deliveries?page=1&limit=10`, { token: host.token });
    expect(deliveries.status).toBe(200);
    expect(deliveries.body).toEqual({ data: [], pagination: { page: 1, limit: 10, total: 0 } }); // no worker ran yet
    for (const q of ["limit=0", "limit=101", "page=0", "page=x", "sort=asc"]) {
      expect((await api.get(`/me/webhooks/${created.id}/deliveries?${q}`, { token: host.token })).status, q).toBe(400);
    }
  });

  it("keeps a host to 20 webhooks", async () => {
    const host = await createHost();
    for (let i = 0; i < 20; i++) await createWebhook(host, { url: `https://hooks.example.com/${i}` });
    const over = await api.post("/me/webhooks", { url: "https://hooks.example.com/21" }, { token: host.token });
    expect(over.status).toBe(409);
    expect(over.body.error).toBe("conflict");
  });
});

describe("webhooks: narrowed to event types", () => {
  /** A host with a personal event type and a team one they host, plus what they may not choose. */
  async function hostWithTypes() {
    const host = await createHost();
    const other = await createHost();
    const own = await createEventType(host, { title: "Intro call" });
    const { team, eventType: hosted } = await teamWithType(other, [host], { hostIds: [other.id, host.id] });
    // A type of the same team they do not host, and one of a team they are not in.
    const notHosted = await createTeamEventType(other, team.id, { hostIds: [other.id] });
    const strangers = await createTeam(other, { name: "Elsewhere" });
    const foreignTeam = await createTeamEventType(other, strangers.id);
    const foreign = await createEventType(other);
    return { host, own, hosted, notHosted, foreignTeam, foreign };
  }

  it("creates, changes and clears the list: own and hosted team types; null is all again", async () => {
    const { host, own, hosted } = await hostWithTypes();
    const created = await createWebhook(host, { eventTypeIds: [own.id] });
    expect(created.eventTypeIds).toEqual([own.id]);
    expect((await api.get(`/me/webhooks/${created.id}`, { token: host.token })).body.eventTypeIds).toEqual([own.id]);

    const changed = await api.patch(`/me/webhooks/${created.id}`, { eventTypeIds: [hosted.id, own.id] }, { token: host.token });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.eventTypeIds).toEqual([hosted.id, own.id]);
    // Changing something else keeps the list.
    expect((await api.patch(`/me/webhooks/${created.id}`, { isActive: false }, { token: host.token })).body.eventTypeIds).toEqual([hosted.id, own.id]);

    const cleared = await api.patch(`/me/webhooks/${created.id}`, { eventTypeIds: null }, { token: host.token });
    expect(cleared.status).toBe(200);
    expect(cleared.body.eventTypeIds).toBeNull();
    const [row] = await (await getDb()).select().from(webhooks).where(eq(webhooks.id, created.id));
    expect(row!.eventTypeIds).toBeNull();
    expect((await createWebhook(host)).eventTypeIds).toBeNull();
  });

  it("refuses another host's, an unhosted team one's and unknown ids at eventTypeIds.N, and changes nothing", async () => {
    const { host, own, notHosted, foreignTeam, foreign } = await hostWithTypes();
    const hook = await createWebhook(host, { eventTypeIds: [own.id] });
    const refused: [unknown, string][] = [
      [[own.id, foreign.id], "eventTypeIds.1"],
      [[notHosted.id], "eventTypeIds.0"],
      [[own.id, foreignTeam.id], "eventTypeIds.1"],
      [["evt_doesnotexist0000000"], "eventTypeIds.0"],
      [["bkg_not-an-event-type"], "eventTypeIds.0"],
      [[], "eventTypeIds"],
      [[own.id, own.id], "eventTypeIds"],
      [Array.from({ length: 101 }, (_, i) => `evt_${i}`), "eventTypeIds"],
    ];
    for (const [eventTypeIds, path] of refused) {
      for (const res of [
        await api.post("/me/webhooks", { url: "https://hooks.example.com/narrow", eventTypeIds }, { token: host.token }),
        await api.patch(`/me/webhooks/${hook.id}`, { eventTypeIds, url: "https://hooks.example.com/changed" }, { token: host.token }),
      ]) {
        expect(res.status, JSON.stringify(eventTypeIds)).toBe(400);
        expect(res.body.error).toBe("validation_error");
        expect(res.body.details.issues.map((i: { path: string }) => i.path), JSON.stringify(eventTypeIds)).toEqual([path]);
      }
    }
    const words = (await api.post("/me/webhooks", { url: "https://hooks.example.com/narrow", eventTypeIds: [foreign.id] }, { token: host.token })).body.details.issues[0].message;
    expect(words).toBe(`Not an event type you host: ${foreign.id}. Choose your own event types or team ones you host`);
    const { secret: _secret, ...unchanged } = hook;
    void _secret;
    expect((await api.get("/me/webhooks", { token: host.token })).body.data).toEqual([unchanged]);
  });

  it("stops accepting a team's type once its host has left the team", async () => {
    const owner = await createHost();
    const member = await createHost();
    const team = await createTeam(owner);
    await join(owner, team.id, member);
    const type = await createTeamEventType(owner, team.id, { hostIds: [owner.id, member.id] });
    expect((await createWebhook(member, { eventTypeIds: [type.id] })).eventTypeIds).toEqual([type.id]);
    expect((await api.delete(`/me/teams/${team.id}/members/${member.id}`, { token: member.token })).status).toBe(204);
    const res = await api.post("/me/webhooks", { url: "https://hooks.example.com/left", eventTypeIds: [type.id] }, { token: member.token });
    expect(res.status).toBe(400);
    expect(res.body.details.issues[0].path).toBe("eventTypeIds.0");
  });
});

describe("webhooks: who may see them", () => {
  it("answers 404 for another host's webhook on every route, and changes nothing", async () => {
    const owner = await createHost();
    const other = await createHost();
    const hook = await createWebhook(owner);
    const attempts = [
      () => api.get(`/me/webhooks/${hook.id}`, { token: other.token }),
      () => api.patch(`/me/webhooks/${hook.id}`, { isActive: false }, { token: other.token }),
      () => api.patch(`/me/webhooks/${hook.id}`, { eventTypeIds: ["evt_unknown"] }, { token: other.token }),
      () => api.delete(`/me/webhooks/${hook.id}`, { token: other.token }),
      () => api.get(`/me/webhooks/${hook.id}/deliveries`, { token: other.token }),
      () => api.post(`/me/webhooks/${hook.id}/test`, undefined, { token: other.token }),
      () => api.post(`/me/webhooks/${hook.id}/rotate-secret`, undefined, { token: other.token }),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "not_found", message: "Webhook not found", details: {} });
    }
    expect((await api.get("/me/webhooks", { token: other.token })).body.data).toEqual([]);
    const { secret: _secret, ...unchanged } = hook;
    void _secret;
    expect((await api.get(`/me/webhooks/${hook.id}`, { token: owner.token })).body).toEqual(unchanged);
  });

  it("answers 401 without a token on every webhook route, and the OpenAPI document lists them", async () => {
    const routes: [string, string][] = [
      ["GET", "/me/webhooks"],
      ["POST", "/me/webhooks"],
      ["GET", "/me/webhooks/whk_x"],
      ["PATCH", "/me/webhooks/whk_x"],
      ["DELETE", "/me/webhooks/whk_x"],
      ["GET", "/me/webhooks/whk_x/deliveries"],
      ["POST", "/me/webhooks/whk_x/test"],
      ["POST", "/me/webhooks/whk_x/rotate-secret"],
    ];
    for (const [method, path] of routes) {
      const res = await call(method as "GET", path, method === "GET" || method === "DELETE" ? {} : { body: { url: "https://x.example.com" } });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.error).toBe("unauthorized");
    }
    const doc = (await api.get("/openapi.json")).body;
    for (const [method, template] of [
      ["get", "/me/webhooks"],
      ["post", "/me/webhooks"],
      ["get", "/me/webhooks/{webhookId}"],
      ["patch", "/me/webhooks/{webhookId}"],
      ["delete", "/me/webhooks/{webhookId}"],
      ["get", "/me/webhooks/{webhookId}/deliveries"],
      ["post", "/me/webhooks/{webhookId}/test"],
      ["post", "/me/webhooks/{webhookId}/rotate-secret"],
      ["get", "/public/bookings/{token}.ics"],
    ]) {
      expect(doc.paths[`/api/v1${template}`]?.[method!], `${method} ${template}`).toBeDefined();
    }
    expect(doc.paths["/api/v1/me/webhooks"].post.security).toEqual([{ bearer: [] }, { session: [] }, { apiKey: ["webhooks:write"] }]);
    expect(doc.paths["/api/v1/public/bookings/{token}.ics"].get.security).toEqual([]);
    expect(doc.components.schemas.WebhookDelivery.properties).toHaveProperty("nextRetryAt");
    const narrowing = doc.paths["/api/v1/me/webhooks"].post.requestBody.content["application/json"].schema.properties.eventTypeIds;
    expect(JSON.stringify(narrowing)).toContain("team ones they host");
    // What receivers get is documented too (OpenAPI 3.1 webhooks).
    expect(Object.keys(doc.webhooks)).toEqual([...ALL_EVENTS, "webhook.test"]);
    const created = doc.webhooks["booking.created"].post;
    expect(created.parameters.map((p: { name: string }) => p.name)).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
    expect(created.requestBody.content["application/json"].schema.properties.data).toEqual({ $ref: "#/components/schemas/Booking" });
    expect(doc.webhooks["booking.rescheduled"].post.requestBody.content["application/json"].schema.properties.data.required).toEqual(
      expect.arrayContaining(["previousStartTime", "startTime"]),
    );
  });
});
