import { expect } from "vitest";
import { api } from "./api";
import { unique, type TestHost } from "./factories";

// Teams through the API (decisions §15): made, joined and given event types the way hosts do it.

export const as = (h: TestHost) => ({ token: h.token });

export async function createTeam(owner: TestHost, fields: Record<string, unknown> = {}) {
  const res = await api.post("/me/teams", { slug: unique("team"), name: "Support", ...fields }, as(owner));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function invite(owner: TestHost, teamId: string, who: TestHost, role?: "owner" | "member") {
  const res = await api.post(`/me/teams/${teamId}/members`, { username: who.username, ...(role ? { role } : {}) }, as(owner));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function join(owner: TestHost, teamId: string, who: TestHost, role?: "owner" | "member") {
  await invite(owner, teamId, who, role);
  const res = await api.post(`/me/teams/${teamId}/accept`, undefined, as(who));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

export async function createTeamEventType(owner: TestHost, teamId: string, fields: Record<string, unknown> = {}) {
  const res = await api.post(
    `/me/teams/${teamId}/event-types`,
    { slug: unique("team-call"), title: "Team call", durationMinutes: 30, schedulingType: "round_robin", ...fields },
    as(owner),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A team of `owner` and `members` (all active), and one team event type of theirs. */
export async function teamWithType(owner: TestHost, members: TestHost[], fields: Record<string, unknown> = {}) {
  const team = await createTeam(owner, { name: "Sales" });
  for (const m of members) await join(owner, team.id, m);
  const eventType = await createTeamEventType(owner, team.id, fields);
  return { team, eventType };
}
