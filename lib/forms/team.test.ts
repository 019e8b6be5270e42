import { describe, expect, it } from "vitest";
import type { TeamEventTypeDto } from "@/lib/browser/api-client/event-types";
import type { TeamMemberDto } from "@/lib/browser/api-client/teams";
import { CreateTeamEventTypeBody } from "@/lib/schemas/team";
import { eventTypeValues } from "./event-type";
import { checkForm } from "./resolver";
import {
  inviteBody,
  inviteRules,
  newTeamEventTypeRules,
  newTeamRules,
  teamChangeBody,
  teamChangeRules,
  teamEventTypeFieldOf,
  teamEventTypeValues,
  toTeamEventTypeBody,
} from "./team";

const member = (userId: string, status: TeamMemberDto["status"] = "active", role: TeamMemberDto["role"] = "member"): TeamMemberDto => ({
  userId,
  username: userId,
  fullName: userId.toUpperCase(),
  role,
  status,
});
const members = [member("ada", "active", "owner"), member("grace"), member("alan", "invited")];

describe("a new team's form", () => {
  it("accepts a name and a username-like link", async () => {
    expect(await checkForm(newTeamRules, { name: "Sales", slug: "sales-team", bio: "" })).toEqual({});
  });

  it("says what is wrong with the link in the page's words", async () => {
    expect(await checkForm(newTeamRules, { name: "", slug: "", bio: "" })).toEqual({
      name: "Enter the team's name.",
      slug: "Enter the last part of the team's link, e.g. sales.",
    });
    expect((await checkForm(newTeamRules, { name: "S", slug: "ab", bio: "" })).slug).toBe("Use at least 3 characters.");
    expect((await checkForm(newTeamRules, { name: "S", slug: "Sales", bio: "" })).slug).toBe("Use lower-case letters only.");
    expect((await checkForm(newTeamRules, { name: "S", slug: "-sales", bio: "" })).slug).toBe("Start and end with a letter or digit, not a hyphen.");
    expect((await checkForm(newTeamRules, { name: "S", slug: "sales team", bio: "" })).slug).toMatch(/^Use only lower-case letters/);
    expect((await checkForm(newTeamRules, { name: "S", slug: "a".repeat(41), bio: "" })).slug).toBe("Use at most 40 characters.");
    expect((await checkForm(newTeamRules, { name: "S", slug: "dashboard", bio: "" })).slug).toBe("This link is kept for the site's own pages. Choose another.");
  });

  it("sends the settings' bio, an empty one as none, and refuses one past 280 characters", async () => {
    const team = { name: "Sales", slug: "sales" };
    expect(teamChangeBody({ ...team, bio: "  " })).toEqual({ name: "Sales", slug: "sales", bio: null });
    expect(teamChangeBody({ ...team, bio: "We <3 customers" }).bio).toBe("We <3 customers");
    expect(await checkForm(teamChangeRules, { ...team, bio: "b".repeat(280) })).toEqual({});
    expect(await checkForm(teamChangeRules, { ...team, bio: "b".repeat(281) })).toEqual({ bio: "Must be at most 280 characters" });
  });
});

describe("an invitation", () => {
  it("takes a username as people write it", () => {
    expect(inviteBody({ invitee: " @Grace ", role: "member", language: "en" })).toEqual({ username: "grace", role: "member" });
  });

  it("takes an email address, with the language of its email", () => {
    expect(inviteBody({ invitee: " Grace@Example.com ", role: "owner", language: "de" })).toEqual({ email: "Grace@Example.com", role: "owner", language: "de" });
  });

  it("asks for a username or an email address, and a whole address", async () => {
    expect(await checkForm(inviteRules, { invitee: "  ", role: "member", language: "en" })).toEqual({ invitee: "Enter a username or an email address." });
    expect(await checkForm(inviteRules, { invitee: "grace@", role: "member", language: "en" })).toEqual({ invitee: "Enter a whole email address, e.g. ana@example.com." });
  });
});

describe("a team event type's form", () => {
  it("starts as round robin, hosted by every active member (not the invited)", () => {
    const v = teamEventTypeValues(undefined, members);
    expect(v.schedulingType).toBe("round_robin");
    expect(v.hostIds).toEqual(["ada", "grace"]);
  });

  it("keeps a stored one's hosts who are still active members", () => {
    const stored: TeamEventTypeDto = { ...eventTypeStub(), schedulingType: "collective", hostIds: ["grace", "gone"] };
    const v = teamEventTypeValues(stored, members);
    expect(v.schedulingType).toBe("collective");
    expect(v.hostIds).toEqual(["grace"]);
  });

  it("sends the personal fields and the team's two", () => {
    const v = { ...teamEventTypeValues(undefined, members), title: "Demo", slug: "demo" };
    expect(toTeamEventTypeBody(v)).toMatchObject({ title: "Demo", slug: "demo", durationMinutes: 30, schedulingType: "round_robin", hostIds: ["ada", "grace"] });
    // What the API takes, by its own schema.
    expect(CreateTeamEventTypeBody.safeParse(toTeamEventTypeBody(v)).success).toBe(true);
  });

  it("asks for at least one host, and for how bookings are shared", async () => {
    const v = { ...teamEventTypeValues(undefined, members), title: "Demo", slug: "demo", hostIds: [], schedulingType: "" as const };
    expect(await checkForm(newTeamEventTypeRules, v)).toEqual({
      schedulingType: "Choose how bookings are shared: round robin or collective.",
      hostIds: "Choose at least one host.",
    });
  });

  it("shows the API's issues at the team's fields, and the personal ones at theirs", () => {
    expect(teamEventTypeFieldOf("hostIds")).toBe("hostIds");
    expect(teamEventTypeFieldOf("hostIds.1")).toBe("hostIds");
    expect(teamEventTypeFieldOf("schedulingType")).toBe("schedulingType");
    expect(teamEventTypeFieldOf("customQuestions.0.label")).toBe("customQuestions.0.label");
    expect(teamEventTypeFieldOf("durationMinutes")).toBe("durationMinutes");
  });
});

function eventTypeStub() {
  const v = eventTypeValues(undefined);
  return {
    id: "et_1",
    teamId: "team_1",
    slug: "demo",
    title: "Demo",
    durationMinutes: 30,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    slotIntervalMinutes: 30,
    location: "",
    description: "",
    customQuestions: [],
    isActive: true,
    color: v.color,
    requiresConfirmation: false,
    limits: {},
    reminders: [],
    minNoticeHours: null,
    maxAdvanceDays: null,
    scheduleId: null,
    publicUrl: "http://localhost/team/sales/demo",
    createdAt: "2026-11-27T00:00:00.000Z",
  };
}
