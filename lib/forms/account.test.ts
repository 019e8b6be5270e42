import { describe, expect, it } from "vitest";
import { emailRules, passwordRules, profileBody, profileRules } from "./account";
import { checkForm } from "./resolver";

describe("the settings forms' checks before sending (the API's schemas)", () => {
  it("asks for the current password and a new one of 8 to 128 characters, in the page's words", async () => {
    expect(await checkForm(passwordRules, { currentPassword: "", newPassword: "short" })).toEqual({
      currentPassword: "Enter your current password.",
      newPassword: "Use at least 8 characters.",
    });
    expect(await checkForm(passwordRules, { currentPassword: "old", newPassword: "x".repeat(129) })).toEqual({ newPassword: "Use at most 128 characters." });
    expect(await checkForm(passwordRules, { currentPassword: "old", newPassword: "a brand new secret" })).toEqual({});
  });

  it("checks the profile as the API does, the username only when it changes", async () => {
    const context = { currentUsername: "api" }; // reserved since, yet still this host's
    const profile = { fullName: "Ada", username: "api", avatarUrl: "", bio: " ", timezone: "Europe/Berlin", language: "de" as const };
    expect(profileBody(profile, context)).toEqual({ fullName: "Ada", timezone: "Europe/Berlin", language: "de", avatarUrl: null, bio: null });
    expect(await checkForm(profileRules, profile, context)).toEqual({});
    expect(await checkForm(profileRules, { ...profile, fullName: " ", username: "No", avatarUrl: "ftp://example.com/me.png", bio: "b".repeat(281) }, context)).toEqual({
      fullName: "Must not be empty",
      username: "Must be 3–40 lower-case letters, digits or hyphens, starting and ending with a letter or digit",
      avatarUrl: "Must be an http(s) URL",
      bio: "Must be at most 280 characters",
    });
    expect(profileBody({ ...profile, bio: "Ask me about <b>tax</b>." }, context).bio).toBe("Ask me about <b>tax</b>.");
  });

  it("checks a new email's form, and leaves the password's correctness to the API", async () => {
    expect(await checkForm(emailRules, { newEmail: "not an email", password: "" })).toEqual({ newEmail: "Must be a valid email address" });
  });
});
