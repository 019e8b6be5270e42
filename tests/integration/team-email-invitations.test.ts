import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { outboxJobs, teamEmailInvitations, teamMembers } from "@/db/schema";
import { MAX_PENDING_INVITATIONS_RECEIVED } from "@/lib/services/teams";
import { getDb } from "@/lib/store/database";
import { api } from "../support/api";
import { clientHeaders } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createHost, unique, type TestHost } from "../support/factories";
import { configure, testWorker } from "../support/jobs";
import { startSmtpServer, type SmtpSink } from "../support/smtp";
import { as, createTeam, invite } from "../support/teams";

// Team invitations by email address, end to end: the owner's request, the outbox worker,
// nodemailer talking SMTP to a server inside the test, the link in the message, the sign-up
// through it, and the invitation waiting on the dashboard. Plus expiry, withdrawal and the caps
// counted by address.

withTestDatabase({ isolated: true });

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());
beforeEach(async () => {
  configure({ smtpUrl: smtp.url });
  smtp.mails.length = 0;
  await (await getDb()).delete(outboxJobs);
});

const inviteEmail = (owner: TestHost, teamId: string, email: string, extra: Record<string, unknown> = {}) =>
  api.post(`/me/teams/${teamId}/members`, { email, ...extra }, as(owner));
const invitationsOf = (who: TestHost) => api.get("/me/team-invitations", as(who));
const accept = (who: TestHost, teamId: string) => api.post(`/me/teams/${teamId}/accept`, undefined, as(who));

/** Runs the outbox and returns the mails that reached `address`. */
async function mailsTo(address: string) {
  await (await testWorker()).runDueJobs();
  return smtp.mails.filter((m) => m.envelopeTo.includes(address)).map((m) => m.mail);
}

const signUpToken = (text: string) => /http:\/\/booking\.test\/register\?invitation=([A-Za-z0-9_-]+)/.exec(text)?.[1];

async function register(email: string, invitationToken?: string) {
  const username = unique("newbie");
  const password = "correct horse battery";
  const reg = await api.post(
    "/auth/register",
    { email, password, fullName: "Nina Newcomer", username, timezone: "Europe/Berlin", ...(invitationToken ? { invitationToken } : {}) },
    { headers: clientHeaders() },
  );
  expect(reg.status, JSON.stringify(reg.body)).toBe(201);
  const login = await api.post("/auth/login", { email, password }, { headers: clientHeaders() });
  return { id: reg.body.id, email, username, password, token: login.body.accessToken, timezone: "Europe/Berlin" } as TestHost;
}

/** Moves every invitation of the team into the past, as if its seven days had gone by. */
async function expireInvitationsOf(teamId: string) {
  const db = await getDb();
  const past = new Date(Date.now() - 1000);
  await db.update(teamEmailInvitations).set({ expiresAt: past }).where(eq(teamEmailInvitations.teamId, teamId));
  await db.update(teamMembers).set({ expiresAt: past }).where(eq(teamMembers.teamId, teamId));
}

describe("inviting an email address", () => {
  it("answers the same whether or not an account uses the address, and shows the owner the address only", async () => {
    const [owner, host] = [await createHost({ fullName: "Ann Owner" }), await createHost({ fullName: "Hal Host" })];
    const team = await createTeam(owner, { name: "Sales" });
    const known = await inviteEmail(owner, team.id, host.email.toUpperCase());
    const unknown = await inviteEmail(owner, team.id, `nobody-${host.username}@example.com`);
    expect(known.status).toBe(201);
    expect(unknown.status).toBe(201);
    const shape = (b: Record<string, unknown>) => ({ ...b, id: "…", email: "…", invitedAt: "…", expiresAt: "…" });
    expect(shape(known.body)).toEqual(shape(unknown.body));
    expect(Object.keys(known.body).sort()).toEqual(["email", "expiresAt", "id", "invitedAt", "role", "status"]);
    expect(known.body).toMatchObject({ email: host.email, role: "member", status: "invited" });
    expect(known.body.id).toMatch(/^tinv_/);
    // Seven days to answer.
    expect(Date.parse(known.body.expiresAt) - Date.parse(known.body.invitedAt)).toBeGreaterThan(7 * 86_400_000 - 5_000);

    const read = await api.get(`/me/teams/${team.id}`, as(owner));
    expect(read.body.members.map((m: { userId: string }) => m.userId)).toEqual([owner.id]);
    expect(read.body.emailInvitations.map((i: { email: string }) => i.email)).toEqual([host.email, `nobody-${host.username}@example.com`]);
  });

  it("mails an existing host a link to their invitations, lists it for them and lets them accept it", async () => {
    const [owner, host] = [await createHost({ fullName: "Ann Owner" }), await createHost({ fullName: "Hal Host" })];
    const team = await createTeam(owner, { name: "Sales" });
    expect((await inviteEmail(owner, team.id, host.email)).status).toBe(201);

    const [mail, ...more] = await mailsTo(host.email);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe("Ann Owner invited you to join Sales");
    expect(mail!.text).toContain("Hi Hal Host,");
    expect(mail!.text).toContain("http://booking.test/dashboard/teams");
    expect(signUpToken(mail!.text ?? "")).toBeUndefined();

    const listed = await invitationsOf(host);
    expect(listed.body.data).toEqual([
      { team: { id: team.id, slug: team.slug, name: "Sales" }, role: "member", invitedAt: expect.any(String), invitedBy: { userId: owner.id, username: owner.username, fullName: "Ann Owner" } },
    ]);
    expect(listed.body.pagination.total).toBe(1);

    // Nobody else can accept it, and to them the team does not exist.
    const stranger = await createHost();
    expect((await accept(stranger, team.id)).status).toBe(404);

    const accepted = await accept(host, team.id);
    expect(accepted.status).toBe(200);
    expect(accepted.body.members.find((m: { userId: string }) => m.userId === host.id)).toMatchObject({ status: "active", role: "member" });
    expect((await invitationsOf(host)).body.data).toEqual([]);
    expect((await api.get(`/me/teams/${team.id}`, as(owner))).body.emailInvitations).toEqual([]);
  });

  it("lets an existing host decline an invitation to their address", async () => {
    const [owner, host] = [await createHost(), await createHost()];
    const team = await createTeam(owner);
    await inviteEmail(owner, team.id, host.email);
    expect((await api.delete(`/me/teams/${team.id}/members/${host.id}`, as(host))).status).toBe(204);
    expect((await invitationsOf(host)).body.data).toEqual([]);
    expect((await accept(host, team.id)).status).toBe(404);
  });

  it("mails a new address a sign-up link, in the language asked for, that makes the account an invited member", async () => {
    const owner = await createHost({ fullName: "Ann Owner" });
    const team = await createTeam(owner, { name: "Vertrieb" });
    const address = `${unique("friend")}@example.com`;
    expect((await inviteEmail(owner, team.id, address, { role: "owner", language: "de" })).status).toBe(201);

    const [mail] = await mailsTo(address);
    expect(mail!.subject).toBe("Ann Owner hat dich eingeladen, Vertrieb beizutreten");
    expect(mail!.text).toContain("Guten Tag,");
    const token = signUpToken(mail!.text ?? "");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the hash is stored.
    const [row] = await (await getDb()).select().from(teamEmailInvitations).where(eq(teamEmailInvitations.teamId, team.id));
    expect(row!.tokenHash).not.toBe(token);

    // Registered with another address through the link: invited, to answer on the dashboard.
    const other = await register(`${unique("other")}@example.com`, token);
    const listed = await invitationsOf(other);
    expect(listed.body.data).toEqual([expect.objectContaining({ team: { id: team.id, slug: team.slug, name: "Vertrieb" }, role: "owner" })]);
    const ownersView = await api.get(`/me/teams/${team.id}`, as(owner));
    expect(ownersView.body.members.find((m: { userId: string }) => m.userId === other.id)).toMatchObject({ status: "invited", role: "owner" });
    expect(ownersView.body.emailInvitations).toEqual([]);
    expect((await accept(other, team.id)).status).toBe(200);

    // The link was spent: a second sign-up through it joins nothing.
    const again = await register(`${unique("again")}@example.com`, token);
    expect((await invitationsOf(again)).body.data).toEqual([]);
    expect((await api.get(`/me/teams/${team.id}`, as(again))).status).toBe(404);
  });

  it("joins the team at once when the account is made through the link with the invited address", async () => {
    const owner = await createHost();
    const team = await createTeam(owner);
    const address = `${unique("friend")}@example.com`;
    await inviteEmail(owner, team.id, address);
    const [mail] = await mailsTo(address);
    expect(mail!.subject).toMatch(/invited you to join/);
    const newcomer = await register(address.toUpperCase(), signUpToken(mail!.text ?? ""));
    const read = await api.get(`/me/teams/${team.id}`, as(newcomer));
    expect(read.status).toBe(200);
    expect(read.body.members.find((m: { userId: string }) => m.userId === newcomer.id)).toMatchObject({ status: "active" });
  });

  it("sends nothing for an invitation withdrawn before the worker ran, and its link then joins nothing", async () => {
    const owner = await createHost();
    const team = await createTeam(owner);
    const address = `${unique("friend")}@example.com`;
    const made = await inviteEmail(owner, team.id, address);
    const [job] = await (await getDb()).select().from(outboxJobs);
    expect(job!.kind).toBe("email.team_invitation");
    expect((await api.delete(`/me/teams/${team.id}/invitations/${made.body.id}`, as(owner))).status).toBe(204);
    expect(await mailsTo(address)).toEqual([]);
    expect((await api.get(`/me/teams/${team.id}`, as(owner))).body.emailInvitations).toEqual([]);
  });
});

describe("withdrawing", () => {
  it("is for the team's active owners; another team's invitation is 404, and a withdrawn link joins nothing", async () => {
    const [owner, member, otherOwner] = [await createHost(), await createHost(), await createHost()];
    const team = await createTeam(owner);
    await invite(owner, team.id, member);
    await accept(member, team.id);
    const address = `${unique("friend")}@example.com`;
    const made = await inviteEmail(owner, team.id, address);
    const [mail] = await mailsTo(address);
    const token = signUpToken(mail!.text ?? "");

    expect((await api.delete(`/me/teams/${team.id}/invitations/${made.body.id}`, as(member))).status).toBe(403);
    expect((await api.delete(`/me/teams/${team.id}/invitations/${made.body.id}`, as(otherOwner))).status).toBe(404);
    const elsewhere = await createTeam(otherOwner);
    expect((await api.delete(`/me/teams/${elsewhere.id}/invitations/${made.body.id}`, as(otherOwner))).status).toBe(404);
    // A member does not see the team's invitations by email at all.
    expect((await api.get(`/me/teams/${team.id}`, as(member))).body).not.toHaveProperty("emailInvitations");

    expect((await api.delete(`/me/teams/${team.id}/invitations/${made.body.id}`, as(owner))).status).toBe(204);
    expect((await api.delete(`/me/teams/${team.id}/invitations/${made.body.id}`, as(owner))).status).toBe(404);
    const late = await register(address, token);
    expect((await api.get(`/me/teams/${team.id}`, as(late))).status).toBe(404);
    expect((await invitationsOf(late)).body.data).toEqual([]);
  });
});

describe("expiry", () => {
  it("an expired invitation, by email or by username, is not listed, cannot be accepted, and can be sent again", async () => {
    const [owner, byName, byEmail] = [await createHost(), await createHost(), await createHost()];
    const team = await createTeam(owner);
    await invite(owner, team.id, byName);
    await inviteEmail(owner, team.id, byEmail.email);
    const address = `${unique("friend")}@example.com`;
    await inviteEmail(owner, team.id, address);
    const token = signUpToken((await mailsTo(address))[0]!.text ?? "");
    await expireInvitationsOf(team.id);

    for (const who of [byName, byEmail]) {
      expect((await invitationsOf(who)).body.data).toEqual([]);
      expect((await accept(who, team.id)).status).toBe(404);
    }
    const read = await api.get(`/me/teams/${team.id}`, as(owner));
    expect(read.body.members.map((m: { userId: string }) => m.userId)).toEqual([owner.id]);
    expect(read.body.emailInvitations).toEqual([]);
    const late = await register(address, token);
    expect((await api.get(`/me/teams/${team.id}`, as(late))).status).toBe(404);

    // Sent again, each is a fresh invitation.
    expect((await invite(owner, team.id, byName)).status).toBe("invited");
    expect((await inviteEmail(owner, team.id, byEmail.email)).status).toBe(201);
    expect((await accept(byName, team.id)).status).toBe(200);
    expect((await accept(byEmail, team.id)).status).toBe(200);
  });

  it("an expired invitation no longer counts toward the caps", async () => {
    const owner = await createHost();
    const address = `${unique("busy")}@example.com`;
    const teams = [];
    for (let i = 0; i < MAX_PENDING_INVITATIONS_RECEIVED; i++) {
      const team = await createTeam(owner);
      expect((await inviteEmail(owner, team.id, address)).status).toBe(201);
      teams.push(team);
    }
    const one = await createTeam(owner);
    expect((await inviteEmail(owner, one.id, address)).status).toBe(409);
    await expireInvitationsOf(teams[0].id);
    expect((await inviteEmail(owner, one.id, address)).status).toBe(201);
  });
});

describe("caps by address", () => {
  it(`counts invitations by email and by username to the same person together, the address in any case`, async () => {
    const [spammer, friend, target] = [await createHost(), await createHost(), await createHost()];
    for (let i = 0; i < MAX_PENDING_INVITATIONS_RECEIVED; i++) {
      const team = await createTeam(spammer);
      if (i % 2 === 0) await invite(spammer, team.id, target);
      else expect((await inviteEmail(spammer, team.id, i % 3 === 0 ? target.email.toUpperCase() : target.email)).status).toBe(201);
    }
    const friendsTeam = await createTeam(friend);
    const byEmail = await inviteEmail(friend, friendsTeam.id, target.email.toUpperCase());
    expect(byEmail.status).toBe(409);
    expect(byEmail.body).toMatchObject({ error: "conflict", details: { field: "email", limit: "invitations_received" } });
    const byName = await api.post(`/me/teams/${friendsTeam.id}/members`, { username: target.username }, as(friend));
    expect(byName.body).toMatchObject({ error: "conflict", details: { field: "username", limit: "invitations_received" } });
  });

  it("refuses the same address twice in one team, and a body with both or neither of username and email", async () => {
    const owner = await createHost();
    const team = await createTeam(owner);
    const address = `${unique("twice")}@example.com`;
    expect((await inviteEmail(owner, team.id, address)).status).toBe(201);
    const twice = await inviteEmail(owner, team.id, address.toUpperCase());
    expect(twice.status).toBe(409);
    expect(twice.body.details).toEqual({ field: "email" });
    expect((await api.post(`/me/teams/${team.id}/members`, { username: owner.username, email: address }, as(owner))).status).toBe(400);
    expect((await api.post(`/me/teams/${team.id}/members`, { role: "member" }, as(owner))).status).toBe(400);
    expect((await inviteEmail(owner, team.id, "not an address")).status).toBe(400);
  });

  it("only active owners invite by email; a non-member gets 404", async () => {
    const [owner, member, stranger] = [await createHost(), await createHost(), await createHost()];
    const team = await createTeam(owner);
    await invite(owner, team.id, member);
    expect((await inviteEmail(member, team.id, "x@example.com")).status).toBe(403);
    await accept(member, team.id);
    expect((await inviteEmail(member, team.id, "x@example.com")).status).toBe(403);
    expect((await inviteEmail(stranger, team.id, "x@example.com")).status).toBe(404);
  });
});
