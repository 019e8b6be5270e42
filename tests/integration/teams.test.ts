import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { insertBookingRow } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createHost, unique } from "../support/factories";
import { as, createTeam, createTeamEventType, invite, join } from "../support/teams";

withTestDatabase();

describe("teams", () => {
  it("creates a team with the caller as its active owner, lists, reads, renames and deletes it", async () => {
    const owner = await createHost({ fullName: "Olive Owner" });
    const slug = unique("acme");
    const created = await api.post("/me/teams", { slug, name: "Acme" }, as(owner));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^team_[A-Za-z0-9_-]{20,}$/),
      slug,
      name: "Acme",
      bio: null,
      createdAt: expect.stringMatching(/Z$/),
      members: [{ userId: owner.id, username: owner.username, fullName: "Olive Owner", role: "owner", status: "active" }],
    });
    const teamId = created.body.id;

    const list = await api.get("/me/teams", as(owner));
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ data: [created.body], pagination: { page: 1, limit: 20, total: 1 } });
    expect((await api.get(`/me/teams/${teamId}`, as(owner))).body).toEqual({ ...created.body, emailInvitations: [] });

    const newSlug = unique("acme-two");
    const renamed = await api.patch(`/me/teams/${teamId}`, { name: "Acme Two", slug: newSlug }, as(owner));
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: teamId, name: "Acme Two", slug: newSlug });

    expect((await api.delete(`/me/teams/${teamId}`, as(owner))).status).toBe(204);
    expect((await api.get(`/me/teams/${teamId}`, as(owner))).status).toBe(404);
    expect((await api.get("/me/teams", as(owner))).body).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0 } });
  });

  it("refuses a taken slug (409) and a reserved or malformed one (400)", async () => {
    const [a, b] = [await createHost(), await createHost()];
    const team = await createTeam(a);
    const taken = await api.post("/me/teams", { slug: team.slug, name: "Copy" }, as(b));
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ error: "conflict", details: { field: "slug" } });
    const other = await createTeam(b);
    const moved = await api.patch(`/me/teams/${other.id}`, { slug: team.slug }, as(b));
    expect(moved.status).toBe(409);

    for (const slug of ["team", "dashboard", "api", "Bad Slug", "a", "-ab"]) {
      const res = await api.post("/me/teams", { slug, name: "X" }, as(a));
      expect(res.status, slug).toBe(400);
      expect(res.body.details.issues.map((i: { path: string }) => i.path)).toContain("slug");
    }
    const reserved = await api.post("/me/teams", { slug: "team", name: "X" }, as(a));
    expect(reserved.body.details.issues[0].message).toBe("This name is reserved");
    expect((await api.post("/me/teams", { slug: unique("ok"), name: "" }, as(a))).status).toBe(400);
    expect((await api.post("/me/teams", { slug: unique("ok"), name: "X", extra: 1 }, as(a))).status).toBe(400);
  });
});

describe("members", () => {
  it("invites (invited), the invitee sees the team and accepts (active)", async () => {
    const [owner, invitee] = [await createHost(), await createHost({ fullName: "Ivy Invitee" })];
    const team = await createTeam(owner);
    const invited = await api.post(`/me/teams/${team.id}/members`, { username: invitee.username }, as(owner));
    expect(invited.status).toBe(201);
    expect(invited.body).toEqual({ userId: invitee.id, username: invitee.username, fullName: "Ivy Invitee", role: "member", status: "invited" });

    // The invitee lists and reads the team, but sees no event types and cannot act as an owner yet.
    expect((await api.get("/me/teams", as(invitee))).body.data.map((t: { id: string }) => t.id)).toEqual([team.id]);
    expect((await api.get(`/me/teams/${team.id}`, as(invitee))).status).toBe(200);
    expect((await api.get(`/me/teams/${team.id}/event-types`, as(invitee))).status).toBe(403);

    const accepted = await api.post(`/me/teams/${team.id}/accept`, undefined, as(invitee));
    expect(accepted.status).toBe(200);
    expect(accepted.body.members).toEqual([
      expect.objectContaining({ userId: owner.id, role: "owner", status: "active" }),
      expect.objectContaining({ userId: invitee.id, role: "member", status: "active" }),
    ]);
    // Accepting again answers the same.
    expect((await api.post(`/me/teams/${team.id}/accept`, undefined, as(invitee))).body).toEqual(accepted.body);
    expect((await api.get(`/me/teams/${team.id}/event-types`, as(invitee))).status).toBe(200);
  });

  it("answers 404 for an unknown username and 409 for someone already in the team", async () => {
    const [owner, member] = [await createHost(), await createHost()];
    const team = await createTeam(owner);
    const unknown = await api.post(`/me/teams/${team.id}/members`, { username: unique("nobody") }, as(owner));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: "not_found", details: { field: "username" } });
    await invite(owner, team.id, member);
    const again = await api.post(`/me/teams/${team.id}/members`, { username: member.username }, as(owner));
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("conflict");
    const self = await api.post(`/me/teams/${team.id}/members`, { username: owner.username }, as(owner));
    expect(self.status).toBe(409);
    expect((await api.post(`/me/teams/${team.id}/members`, { username: member.username, role: "boss" }, as(owner))).status).toBe(400);
  });

  it("lets only the invited accept: anyone else gets 404", async () => {
    const [owner, stranger] = [await createHost(), await createHost()];
    const team = await createTeam(owner);
    const res = await api.post(`/me/teams/${team.id}/accept`, undefined, as(stranger));
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("not_found");
  });

  it("removes a member (owner), lets a member leave, and refuses a member removing someone else (403)", async () => {
    const [owner, m1, m2] = [await createHost(), await createHost(), await createHost()];
    const team = await createTeam(owner);
    await join(owner, team.id, m1);
    await join(owner, team.id, m2);

    const refused = await api.delete(`/me/teams/${team.id}/members/${m2.id}`, as(m1));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("forbidden");

    expect((await api.delete(`/me/teams/${team.id}/members/${m1.id}`, as(m1))).status).toBe(204);
    expect((await api.get(`/me/teams/${team.id}`, as(m1))).status).toBe(404);
    expect((await api.delete(`/me/teams/${team.id}/members/${m2.id}`, as(owner))).status).toBe(204);
    expect((await api.get(`/me/teams/${team.id}`, as(owner))).body.members.map((m: { userId: string }) => m.userId)).toEqual([owner.id]);
    expect((await api.delete(`/me/teams/${team.id}/members/${m2.id}`, as(owner))).status).toBe(404);
  });

  it("an invitee can decline (remove themselves)", async () => {
    const [owner, invitee] = [await createHost(), await createHost()];
    const team = await createTeam(owner);
    await invite(owner, team.id, invitee);
    expect((await api.delete(`/me/teams/${team.id}/members/${invitee.id}`, as(invitee))).status).toBe(204);
    expect((await api.get("/me/teams", as(invitee))).body.data).toEqual([]);
  });

  it("keeps the last active owner: cannot leave, be removed or be demoted (409); with a second owner, can", async () => {
    const [owner, other] = [await createHost(), await createHost()];
    const team = await createTeam(owner);
    const leave = await api.delete(`/me/teams/${team.id}/members/${owner.id}`, as(owner));
    expect(leave.status).toBe(409);
    expect(leave.body.error).toBe("conflict");
    const demote = await api.patch(`/me/teams/${team.id}/members/${owner.id}`, { role: "member" }, as(owner));
    expect(demote.status).toBe(409);

    // An invited owner is not an owner yet: still the last one.
    await invite(owner, team.id, other, "owner");
    expect((await api.delete(`/me/teams/${team.id}/members/${owner.id}`, as(owner))).status).toBe(409);
    expect((await api.patch(`/me/teams/${team.id}/members/${other.id}`, { role: "member" }, as(other))).status).toBe(403);
    await api.post(`/me/teams/${team.id}/accept`, undefined, as(other));

    const demoted = await api.patch(`/me/teams/${team.id}/members/${owner.id}`, { role: "member" }, as(other));
    expect(demoted.status).toBe(200);
    expect(demoted.body).toMatchObject({ userId: owner.id, role: "member", status: "active" });
    // The remaining owner is now the last one.
    expect((await api.delete(`/me/teams/${team.id}/members/${other.id}`, as(other))).status).toBe(409);
    expect((await api.delete(`/me/teams/${team.id}/members/${other.id}`, as(owner))).status).toBe(403);
    const promoted = await api.patch(`/me/teams/${team.id}/members/${owner.id}`, { role: "owner" }, as(other));
    expect(promoted.body.role).toBe("owner");
    expect((await api.delete(`/me/teams/${team.id}/members/${other.id}`, as(other))).status).toBe(204);
  });

  it("two owners leaving at once leave one of them (the team's row lock orders them)", async () => {
    const [a, b] = [await createHost(), await createHost()];
    const teams = await Promise.all([1, 2, 3, 4, 5].map(() => createTeam(a)));
    for (const team of teams) await join(a, team.id, b, "owner");
    const answers = await Promise.all(
      teams.flatMap((team) => [
        api.delete(`/me/teams/${team.id}/members/${a.id}`, as(a)),
        api.delete(`/me/teams/${team.id}/members/${b.id}`, as(b)),
      ]),
    );
    for (const [i, team] of teams.entries()) {
      const [ra, rb] = [answers[2 * i]!, answers[2 * i + 1]!];
      expect([ra.status, rb.status].sort()).toEqual([204, 409]);
      const stayed = ra.status === 409 ? a : b;
      const members = (await api.get(`/me/teams/${team.id}`, as(stayed))).body.members;
      expect(members).toEqual([expect.objectContaining({ userId: stayed.id, role: "owner", status: "active" })]);
    }
  });
});

describe("who may do what", () => {
  it("answers 404 to a non-member on every team route", async () => {
    const [owner, stranger] = [await createHost(), await createHost()];
    const team = await createTeam(owner);
    const et = await createTeamEventType(owner, team.id);
    const t = `/me/teams/${team.id}`;
    const calls = [
      api.get(t, as(stranger)),
      api.patch(t, { name: "Mine" }, as(stranger)),
      api.delete(t, as(stranger)),
      api.post(`${t}/members`, { username: stranger.username }, as(stranger)),
      api.patch(`${t}/members/${owner.id}`, { role: "member" }, as(stranger)),
      api.delete(`${t}/members/${owner.id}`, as(stranger)),
      api.delete(`${t}/members/${stranger.id}`, as(stranger)),
      api.post(`${t}/accept`, undefined, as(stranger)),
      api.get(`${t}/event-types`, as(stranger)),
      api.post(`${t}/event-types`, { slug: "x-y", title: "X", durationMinutes: 30, schedulingType: "collective" }, as(stranger)),
      api.get(`${t}/event-types/${et.id}`, as(stranger)),
      api.patch(`${t}/event-types/${et.id}`, { title: "Mine" }, as(stranger)),
      api.delete(`${t}/event-types/${et.id}`, as(stranger)),
      api.get("/me/teams/team_doesnotexist", as(stranger)),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe("not_found");
    }
    expect((await api.get(`${t}/event-types/${et.id}`, as(owner))).body.title).toBe("Team call");
  });

  it("answers 403 forbidden to a member asking for an owner's action, and lets them read", async () => {
    const [owner, member, third] = [await createHost(), await createHost(), await createHost()];
    const team = await createTeam(owner);
    await join(owner, team.id, member);
    const et = await createTeamEventType(owner, team.id);
    const t = `/me/teams/${team.id}`;
    const calls = [
      api.patch(t, { name: "Mine" }, as(member)),
      api.delete(t, as(member)),
      api.post(`${t}/members`, { username: third.username }, as(member)),
      api.patch(`${t}/members/${member.id}`, { role: "owner" }, as(member)),
      api.post(`${t}/event-types`, { slug: "x-y", title: "X", durationMinutes: 30, schedulingType: "collective" }, as(member)),
      api.patch(`${t}/event-types/${et.id}`, { title: "Mine" }, as(member)),
      api.delete(`${t}/event-types/${et.id}`, as(member)),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe("forbidden");
    }
    expect((await api.get(t, as(member))).status).toBe(200);
    expect((await api.get(`${t}/event-types`, as(member))).body.data).toEqual([et]);
    expect((await api.get(`${t}/event-types/${et.id}`, as(member))).body).toEqual(et);
  });
});

describe("team event types", () => {
  it("creates with the personal fields, schedulingType, all active members as hosts, and the team's public URL", async () => {
    const [owner, member, invitee] = [await createHost(), await createHost(), await createHost()];
    const team = await createTeam(owner);
    await join(owner, team.id, member);
    await invite(owner, team.id, invitee);
    const res = await api.post(
      `/me/teams/${team.id}/event-types`,
      { slug: "demo", title: "Demo", durationMinutes: 45, schedulingType: "collective", bufferAfterMinutes: 10 },
      as(owner),
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^evt_/),
      slug: "demo",
      title: "Demo",
      durationMinutes: 45,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 10,
      slotIntervalMinutes: 45,
      location: "",
      description: "",
      customQuestions: [],
      isActive: true,
      color: "#2563eb",
      requiresConfirmation: false,
      limits: {},
      reminders: [],
      minNoticeHours: null,
      maxAdvanceDays: null,
      scheduleId: null,
      seats: null,
      recurrence: null,
      conflictCalendars: null,
      price: null,
      publicUrl: `http://booking.test/team/${team.slug}/demo`,
      createdAt: expect.stringMatching(/Z$/),
      teamId: team.id,
      schedulingType: "collective",
      hostIds: [owner.id, member.id],
    });
    const dup = await api.post(`/me/teams/${team.id}/event-types`, { slug: "demo", title: "Again", durationMinutes: 30, schedulingType: "round_robin" }, as(owner));
    expect(dup.status).toBe(409);
    expect(dup.body.details).toEqual({ field: "slug" });
    // The same slug in another team, or as the owner's personal event type, is free.
    const other = await createTeam(owner);
    await createTeamEventType(owner, other.id, { slug: "demo" });
    expect((await api.post("/me/event-types", { slug: "demo", title: "Mine", durationMinutes: 30 }, as(owner))).status).toBe(201);
  });

  it("requires schedulingType, and refuses hosts who are not active members (400 at hostIds)", async () => {
    const [owner, invitee, stranger] = [await createHost(), await createHost(), await createHost()];
    const team = await createTeam(owner);
    await invite(owner, team.id, invitee);
    const url = `/me/teams/${team.id}/event-types`;
    const base = { slug: unique("t"), title: "T", durationMinutes: 30 };

    const missing = await api.post(url, base, as(owner));
    expect(missing.status).toBe(400);
    expect(missing.body.details.issues.map((i: { path: string }) => i.path)).toContain("schedulingType");
    expect((await api.post(url, { ...base, schedulingType: "random" }, as(owner))).status).toBe(400);

    for (const hostIds of [[invitee.id], [owner.id, stranger.id], ["usr_nobody"]]) {
      const res = await api.post(url, { ...base, schedulingType: "round_robin", hostIds }, as(owner));
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("validation_error");
      expect(res.body.details.issues.map((i: { path: string }) => i.path)).toEqual(["hostIds"]);
    }
    expect((await api.post(url, { ...base, schedulingType: "round_robin", hostIds: [] }, as(owner))).status).toBe(400);
    expect((await api.post(url, { ...base, schedulingType: "round_robin", hostIds: [owner.id, owner.id] }, as(owner))).status).toBe(400);
    expect((await api.get(url, as(owner))).body.data).toEqual([]);

    await api.post(`/me/teams/${team.id}/accept`, undefined, as(invitee));
    const ok = await api.post(url, { ...base, schedulingType: "round_robin", hostIds: [invitee.id] }, as(owner));
    expect(ok.status).toBe(201);
    expect(ok.body.hostIds).toEqual([invitee.id]);
    const bad = await api.patch(`${url}/${ok.body.id}`, { hostIds: [stranger.id] }, as(owner));
    expect(bad.status).toBe(400);
    expect(bad.body.details.issues.map((i: { path: string }) => i.path)).toEqual(["hostIds"]);
  });

  it("reads, changes and deletes: hard without bookings, soft (isActive false) with one", async () => {
    const [owner, member] = [await createHost(), await createHost()];
    const team = await createTeam(owner);
    await join(owner, team.id, member);
    const et = await createTeamEventType(owner, team.id);
    const url = `/me/teams/${team.id}/event-types/${et.id}`;

    expect((await api.get(url, as(owner))).body).toEqual(et);
    const changed = await api.patch(url, { title: "Renamed", slug: "renamed", schedulingType: "collective", hostIds: [member.id] }, as(owner));
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ title: "Renamed", slug: "renamed", schedulingType: "collective", hostIds: [member.id] });
    expect(changed.body.publicUrl).toBe(`http://booking.test/team/${team.slug}/renamed`);
    expect((await api.patch(url, {}, as(owner))).body).toEqual(changed.body);
    expect((await api.patch(url, { isActive: false }, as(owner))).body.isActive).toBe(false);

    // An id of another team, or a personal event type's, is not found here.
    const other = await createTeam(owner);
    expect((await api.get(`/me/teams/${other.id}/event-types/${et.id}`, as(owner))).status).toBe(404);
    const personal = (await api.get("/me/event-types", as(owner))).body.data[0];
    expect((await api.get(`/me/teams/${team.id}/event-types/${personal.id}`, as(owner))).status).toBe(404);

    await insertBookingRow(member.id, et.id, new Date(Date.now() + 3 * 86_400_000));
    const soft = await api.delete(url, as(owner));
    expect(soft.status).toBe(200);
    expect(soft.body).toMatchObject({ id: et.id, isActive: false });

    const plain = await createTeamEventType(owner, team.id);
    expect((await api.delete(`/me/teams/${team.id}/event-types/${plain.id}`, as(owner))).status).toBe(204);
    expect((await api.get(`/me/teams/${team.id}/event-types/${plain.id}`, as(owner))).status).toBe(404);
    expect((await api.get(`/me/teams/${team.id}/event-types`, as(owner))).body.data.map((e: { id: string }) => e.id)).toEqual([et.id]);
  });

  it("never shows in the personal event types of its hosts", async () => {
    const owner = await createHost();
    const team = await createTeam(owner);
    const et = await createTeamEventType(owner, team.id, { hostIds: [owner.id] });
    const personal = await api.get("/me/event-types", as(owner));
    expect(personal.body.data.map((e: { id: string }) => e.id)).not.toContain(et.id);
    expect(personal.body.data.length).toBeGreaterThan(0); // the starter event type
    expect((await api.patch(`/me/event-types/${et.id}`, { title: "Mine" }, as(owner))).status).toBe(404);
    expect((await api.delete(`/me/event-types/${et.id}`, as(owner))).status).toBe(404);
    expect((await api.get(`/me/event-types/${et.id}/explain?startTime=2030-01-01T10:00:00Z`, as(owner))).status).toBe(404);
  });

  it("drops a member who is removed or leaves from every event type's hosts; their bookings stay", async () => {
    const [owner, m1, m2] = [await createHost(), await createHost(), await createHost()];
    const team = await createTeam(owner);
    await join(owner, team.id, m1);
    await join(owner, team.id, m2);
    const all = await createTeamEventType(owner, team.id);
    const onlyM1 = await createTeamEventType(owner, team.id, { hostIds: [m1.id] });
    const withoutM1 = await createTeamEventType(owner, team.id, { hostIds: [owner.id, m2.id] });
    expect(all.hostIds).toEqual([owner.id, m1.id, m2.id]);
    const { row: booking } = await insertBookingRow(m1.id, all.id, new Date(Date.now() + 5 * 86_400_000));

    expect((await api.delete(`/me/teams/${team.id}/members/${m1.id}`, as(owner))).status).toBe(204);
    const hosts = async (id: string) => (await api.get(`/me/teams/${team.id}/event-types/${id}`, as(owner))).body.hostIds;
    expect(await hosts(all.id)).toEqual([owner.id, m2.id]);
    // Left without hosts: it offers no times until an owner names some.
    expect(await hosts(onlyM1.id)).toEqual([]);
    expect(await hosts(withoutM1.id)).toEqual([owner.id, m2.id]);
    const m1Bookings = await api.get("/me/bookings?status=confirmed", as(m1));
    expect(m1Bookings.body.data.map((b: { id: string }) => b.id)).toContain(booking.id);

    expect((await api.delete(`/me/teams/${team.id}/members/${m2.id}`, as(m2))).status).toBe(204);
    expect(await hosts(all.id)).toEqual([owner.id]);
  });

  it("refuses to delete a team whose event types have bookings (409); deletes it with its event types otherwise", async () => {
    const [owner, member] = [await createHost(), await createHost()];
    const team = await createTeam(owner);
    await join(owner, team.id, member);
    const et = await createTeamEventType(owner, team.id);
    await insertBookingRow(member.id, et.id, new Date(Date.now() + 2 * 86_400_000));
    const refused = await api.delete(`/me/teams/${team.id}`, as(owner));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe("conflict");
    expect((await api.get(`/me/teams/${team.id}`, as(owner))).status).toBe(200);

    const empty = await createTeam(owner);
    const unbooked = await createTeamEventType(owner, empty.id);
    expect((await api.delete(`/me/teams/${empty.id}`, as(owner))).status).toBe(204);
    expect((await api.get(`/me/teams/${empty.id}/event-types/${unbooked.id}`, as(owner))).status).toBe(404);
  });
});
