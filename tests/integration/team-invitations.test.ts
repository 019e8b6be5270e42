import { describe, expect, it } from "vitest";
import { MAX_OWNED_TEAMS, MAX_PENDING_INVITATIONS_RECEIVED, MAX_PENDING_INVITATIONS_SENT } from "@/lib/services/teams";
import { api } from "../support/api";
import { withTestDatabase } from "../support/database";
import { createHost, unique, type TestHost } from "../support/factories";
import { as, createTeam, invite } from "../support/teams";

// The audit's flood (300 teams named like a phishing mail, each inviting one person): a cap on
// the invitations one person has waiting to be answered, sent and received, a cap on teams owned,
// a paged list of teams, and invitations listed apart from the teams one belongs to, with who
// sent each.

withTestDatabase();

const tryInvite = (owner: TestHost, teamId: string, who: TestHost) => api.post(`/me/teams/${teamId}/members`, { username: who.username }, as(owner));
const accept = (who: TestHost, teamId: string) => api.post(`/me/teams/${teamId}/accept`, undefined, as(who));
const decline = (who: TestHost, teamId: string) => api.delete(`/me/teams/${teamId}/members/${who.id}`, as(who));

describe("invitation caps", () => {
  it(`refuses an inviter's invitation past ${MAX_PENDING_INVITATIONS_SENT} pending, across their teams; an answer or a withdrawal frees a place`, async () => {
    const owner = await createHost();
    const people = await Promise.all(Array.from({ length: 8 }, () => createHost()));
    const teams = [await createTeam(owner), await createTeam(owner), await createTeam(owner)];
    // 7 + 7 + 6 = 20 pending, spread over three teams (no invitee holds more than three).
    for (const [i, team] of teams.entries()) {
      for (const p of people.slice(0, i === 2 ? 6 : 7)) await invite(owner, team.id, p);
    }
    const refused = await tryInvite(owner, teams[2].id, people[6]!);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "conflict", details: { field: "username", limit: "invitations_sent" } });
    expect(refused.body.message).toMatch(/You have 20 invitations waiting for an answer/);
    // Someone already in the team is told so, cap or not.
    expect((await tryInvite(owner, teams[0].id, people[0]!)).body.details).toEqual({ field: "username" });

    // Accepting frees a place.
    expect((await accept(people[0]!, teams[0].id)).status).toBe(200);
    expect((await tryInvite(owner, teams[2].id, people[6]!)).status).toBe(201);
    expect((await tryInvite(owner, teams[0].id, people[7]!)).status).toBe(409);
    // So does declining.
    expect((await decline(people[1]!, teams[0].id)).status).toBe(204);
    expect((await tryInvite(owner, teams[0].id, people[7]!)).status).toBe(201);
    expect((await tryInvite(owner, teams[1].id, people[7]!)).status).toBe(409);
    // And so does the owner withdrawing one.
    expect((await api.delete(`/me/teams/${teams[1].id}/members/${people[2]!.id}`, as(owner))).status).toBe(204);
    expect((await tryInvite(owner, teams[1].id, people[7]!)).status).toBe(201);
  });

  it(`refuses a person's invitation past ${MAX_PENDING_INVITATIONS_RECEIVED} pending, saying nothing of who sent the others; an answer frees a place`, async () => {
    const [spammer, friend, target] = [await createHost(), await createHost(), await createHost()];
    const spam = [];
    for (let i = 0; i < MAX_PENDING_INVITATIONS_RECEIVED; i++) {
      const team = await createTeam(spammer, { name: "URGENT: verify your account at https://evil.example" });
      await invite(spammer, team.id, target);
      spam.push(team);
    }
    const friendsTeam = await createTeam(friend, { name: "Sales" });
    const refused = await tryInvite(friend, friendsTeam.id, target);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "conflict", details: { field: "username", limit: "invitations_received" } });
    expect(refused.body.message).toBe(
      "This person cannot receive more team invitations right now. Ask them to accept or decline the ones they have, then invite them again.",
    );
    // Nothing was stored: the friend's team still has its owner alone.
    expect((await api.get(`/me/teams/${friendsTeam.id}`, as(friend))).body.members).toHaveLength(1);

    expect((await decline(target, spam[0].id)).status).toBe(204);
    expect((await tryInvite(friend, friendsTeam.id, target)).status).toBe(201);
    const another = await createTeam(spammer);
    expect((await tryInvite(spammer, another.id, target)).status).toBe(409);
    expect((await accept(target, spam[1].id)).status).toBe(200);
    expect((await tryInvite(spammer, another.id, target)).status).toBe(201);
  });

  it("holds the invitee's cap when invitations from several teams race for the last place", async () => {
    const [owner, target] = [await createHost(), await createHost()];
    for (let i = 0; i < MAX_PENDING_INVITATIONS_RECEIVED - 1; i++) await invite(owner, (await createTeam(owner)).id, target);
    const racers = await Promise.all(Array.from({ length: 4 }, () => createHost()));
    const teams = await Promise.all(racers.map((r) => createTeam(r)));
    const answers = await Promise.all(racers.map((r, i) => tryInvite(r, teams[i].id, target)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    const listed = await api.get("/me/team-invitations?limit=100", as(target));
    expect(listed.body.pagination.total).toBe(MAX_PENDING_INVITATIONS_RECEIVED);
  });

  it(`refuses a new team past ${MAX_OWNED_TEAMS} owned; deleting one frees a place`, async () => {
    const owner = await createHost();
    const teams = [];
    for (let i = 0; i < MAX_OWNED_TEAMS; i++) teams.push(await createTeam(owner));
    const refused = await api.post("/me/teams", { slug: unique("one-more"), name: "One more" }, as(owner));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "conflict", details: { limit: "teams_owned" } });
    expect(refused.body.message).toMatch(/You own 50 teams/);
    expect((await api.delete(`/me/teams/${teams[0].id}`, as(owner))).status).toBe(204);
    expect((await api.post("/me/teams", { slug: unique("one-more"), name: "One more" }, as(owner))).status).toBe(201);
  });
});

describe("GET /me/teams, a page at a time", () => {
  it("pages 25 teams: 20, then 5, with the total; limit and page as asked; bad ones are 400", async () => {
    const owner = await createHost();
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push((await createTeam(owner, { name: `Team ${i}` })).id);

    const first = await api.get("/me/teams", as(owner));
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ page: 1, limit: 20, total: 25 });
    expect(first.body.data.map((t: { id: string }) => t.id)).toEqual(ids.slice(0, 20));
    expect(first.body.data[0]).toEqual({
      id: ids[0],
      slug: expect.any(String),
      name: "Team 0",
      bio: null,
      createdAt: expect.stringMatching(/Z$/),
      members: [expect.objectContaining({ userId: owner.id, role: "owner", status: "active" })],
    });
    const second = await api.get("/me/teams?page=2", as(owner));
    expect(second.body.data.map((t: { id: string }) => t.id)).toEqual(ids.slice(20));
    expect(second.body.pagination).toEqual({ page: 2, limit: 20, total: 25 });
    const third = await api.get("/me/teams?page=3&limit=10", as(owner));
    expect(third.body.data.map((t: { id: string }) => t.id)).toEqual(ids.slice(20));

    for (const q of ["page=0", "limit=0", "limit=101", "page=x", "status=owner", "other=1"]) {
      const res = await api.get(`/me/teams?${q}`, as(owner));
      expect(res.status, q).toBe(400);
      expect(res.body.error).toBe("validation_error");
    }
  });
});

describe("invitations apart from teams", () => {
  it("lists invitations with who sent them, and the teams one belongs to without them", async () => {
    const owner = await createHost({ fullName: "Olive Owner" });
    const me = await createHost();
    const mine = await createTeam(me, { name: "Mine" });
    const theirs = await createTeam(owner, { name: "URGENT: verify your account at https://evil.example" });
    await invite(owner, theirs.id, me, "owner");

    const invitations = await api.get("/me/team-invitations", as(me));
    expect(invitations.status).toBe(200);
    expect(invitations.body).toEqual({
      data: [
        {
          team: { id: theirs.id, slug: theirs.slug, name: "URGENT: verify your account at https://evil.example" },
          role: "owner",
          invitedAt: expect.stringMatching(/Z$/),
          invitedBy: { userId: owner.id, username: owner.username, fullName: "Olive Owner" },
        },
      ],
      pagination: { page: 1, limit: 20, total: 1 },
    });
    const active = await api.get("/me/teams?status=active", as(me));
    expect(active.body.data.map((t: { id: string }) => t.id)).toEqual([mine.id]);
    expect(active.body.pagination.total).toBe(1);
    const invited = await api.get("/me/teams?status=invited", as(me));
    expect(invited.body.data.map((t: { id: string }) => t.id)).toEqual([theirs.id]);
    // Without a status, both, as before.
    expect((await api.get("/me/teams", as(me))).body.data.map((t: { id: string }) => t.id)).toEqual([mine.id, theirs.id]);
    // The owner's own list has no invitations in it.
    expect((await api.get("/me/team-invitations", as(owner))).body).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0 } });

    expect((await accept(me, theirs.id)).status).toBe(200);
    expect((await api.get("/me/team-invitations", as(me))).body.data).toEqual([]);
    expect((await api.get("/me/teams?status=active", as(me))).body.data.map((t: { id: string }) => t.id)).toEqual([mine.id, theirs.id]);
    expect((await api.get("/me/team-invitations?limit=0", as(me))).status).toBe(400);
  });

  it("describes the new list and query in the OpenAPI document", async () => {
    const doc = (await api.get("/openapi.json")).body;
    expect(doc.paths["/api/v1/me/team-invitations"].get.summary).toMatch(/invitations waiting for the caller's answer/);
    const params = doc.paths["/api/v1/me/teams"].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(["status", "page", "limit"]));
  });
});
