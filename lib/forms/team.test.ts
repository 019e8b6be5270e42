import { describe, expect, it } from "vitest";
import { checkForm } from "./resolver";
import { inviteBody, inviteRules, newTeamRules, teamChangeBody, teamChangeRules } from "./team";

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
