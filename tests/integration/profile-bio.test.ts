import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { withTestDatabase } from "../support/database";
import { createHost } from "../support/factories";
import { as, createTeam, join } from "../support/teams";

// The few words guests read on a host's public page (/{username}) and a team's (/team/{slug}):
// `bio` on PATCH/GET /me and PATCH/GET /me/teams/{teamId}, optional, at most 280 characters.

withTestDatabase();

const TOO_LONG = "x".repeat(281);

describe("a host's bio (PATCH /me)", () => {
  it("is null until set, is stored trimmed, and goes again with null or an empty string", async () => {
    const host = await createHost();
    expect((await api.get("/me", as(host))).body.bio).toBeNull();

    const set = await api.patch("/me", { bio: "  I help teams ship.\nAsk me about <b>releases</b>.  " }, as(host));
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.bio).toBe("I help teams ship.\nAsk me about <b>releases</b>.");
    expect((await api.get("/me", as(host))).body.bio).toBe("I help teams ship.\nAsk me about <b>releases</b>.");
    // Other changes leave it alone.
    expect((await api.patch("/me", { fullName: "Still Me" }, as(host))).body.bio).toBe("I help teams ship.\nAsk me about <b>releases</b>.");

    expect((await api.patch("/me", { bio: "   " }, as(host))).body.bio).toBeNull();
    await api.patch("/me", { bio: "Back" }, as(host));
    expect((await api.patch("/me", { bio: null }, as(host))).body.bio).toBeNull();
  });

  it("takes 280 characters and refuses 281 with a 400 that says so at bio, changing nothing", async () => {
    const host = await createHost();
    expect((await api.patch("/me", { bio: "y".repeat(280) }, as(host))).body.bio).toHaveLength(280);
    const refused = await api.patch("/me", { bio: TOO_LONG, fullName: "Not Saved" }, as(host));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("validation_error");
    expect(refused.body.details.issues).toEqual([expect.objectContaining({ path: "bio", message: "Must be at most 280 characters" })]);
    const me = (await api.get("/me", as(host))).body;
    expect(me.bio).toHaveLength(280);
    expect(me.fullName).toBe("Test Host");
    expect((await api.patch("/me", { bio: 42 }, as(host))).status).toBe(400);
  });
});

describe("a team's bio (PATCH /me/teams/{teamId})", () => {
  it("is set by an owner, read by members, refused to a member (403) and when too long (400)", async () => {
    const owner = await createHost();
    const member = await createHost();
    const team = await createTeam(owner);
    expect(team.bio).toBeNull();
    await join(owner, team.id, member);

    const set = await api.patch(`/me/teams/${team.id}`, { bio: " We answer questions about your order. " }, as(owner));
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.bio).toBe("We answer questions about your order.");
    expect((await api.get(`/me/teams/${team.id}`, as(member))).body.bio).toBe("We answer questions about your order.");

    const byMember = await api.patch(`/me/teams/${team.id}`, { bio: "Taken over" }, as(member));
    expect(byMember.status).toBe(403);
    const tooLong = await api.patch(`/me/teams/${team.id}`, { bio: TOO_LONG }, as(owner));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details.issues).toEqual([expect.objectContaining({ path: "bio", message: "Must be at most 280 characters" })]);
    expect((await api.get(`/me/teams/${team.id}`, as(owner))).body.bio).toBe("We answer questions about your order.");
    expect((await api.patch(`/me/teams/${team.id}`, { bio: null }, as(owner))).body.bio).toBeNull();
  });

  it("is not anyone else's to read or change (404 to a stranger)", async () => {
    const owner = await createHost();
    const stranger = await createHost();
    const team = await createTeam(owner);
    expect((await api.patch(`/me/teams/${team.id}`, { bio: "Mine now" }, as(stranger))).status).toBe(404);
    expect((await api.get(`/me/teams/${team.id}`, as(owner))).body.bio).toBeNull();
  });
});

describe("OpenAPI", () => {
  it("documents bio as an optional field of both bodies and a field of both answers", async () => {
    const doc = (await api.get("/openapi.json")).body;
    const bodyOf = (path: string) => doc.paths[path].patch.requestBody.content["application/json"].schema;
    const resolve = (s: { $ref?: string }) => (s.$ref ? doc.components.schemas[s.$ref.split("/").pop()!] : s);
    for (const path of ["/api/v1/me", "/api/v1/me/teams/{teamId}"]) {
      const body = resolve(bodyOf(path));
      expect(body.properties, path).toHaveProperty("bio");
      expect(body.required ?? [], path).not.toContain("bio");
      const answer = resolve(doc.paths[path].get.responses["200"].content["application/json"].schema);
      expect(answer.properties, path).toHaveProperty("bio");
    }
  });
});
