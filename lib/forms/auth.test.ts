import { describe, expect, it } from "vitest";
import { registerBody, usernameFrom, type RegisterValues } from "./auth";
// The rules as the pages take them: loaded on first need (auth-lazy.ts) from auth-rules.ts.
import { confirmEmailRules, forgotPasswordRules, loginRules, newPasswordRules, registerRules } from "./auth-lazy";
import { checkForm } from "./resolver";

const valid: RegisterValues = { fullName: "Ada Lovelace", email: "ada@example.com", password: "correct horse", username: "ada-lovelace", timezone: "Europe/London" };

describe("the sign-up form: the API's schema, in the API's words", () => {
  it("accepts a valid form, and sends an invitation's secret with it", async () => {
    expect(await checkForm(registerRules, valid, {})).toEqual({});
    expect(registerBody(valid, { invitationToken: "secret" })).toEqual({ ...valid, invitationToken: "secret" });
    expect(registerBody(valid, {})).toEqual(valid);
  });

  it("finds every problem at once, at its field", async () => {
    expect(await checkForm(registerRules, { ...valid, fullName: " ", email: "ada@", password: "short", username: "No", timezone: "" }, {})).toEqual({
      fullName: "Must not be empty",
      email: "Must be a valid email address",
      password: "Must be at least 8 characters",
      username: "Must be 3–40 lower-case letters, digits or hyphens, starting and ending with a letter or digit",
      timezone: expect.any(String),
    });
    expect((await checkForm(registerRules, { ...valid, username: "dashboard" }, {})).username).toBe("This username is reserved");
  });

  it("suggests a username from the name, in the API's alphabet", () => {
    expect(usernameFrom("Zoë Müller-Smith")).toBe("zoe-muller-smith");
    expect(usernameFrom("  --Ada  ")).toBe("ada");
    expect(usernameFrom("x".repeat(39) + " y")).toBe("x".repeat(39));
  });
});

describe("the other account forms", () => {
  it("lets any login through to the credential check (it says what is wrong)", async () => {
    expect(await checkForm(loginRules, { email: "", password: "" })).toEqual({});
  });

  it("asks for a whole email address for a reset link", async () => {
    expect(await checkForm(forgotPasswordRules, { email: "ada" })).toEqual({ email: "Must be a valid email address" });
  });

  it("checks a new password, and leaves a problem with the link's token to the API", async () => {
    expect(await checkForm(newPasswordRules, { newPassword: "short" }, { token: "t" })).toEqual({ newPassword: "Must be at least 8 characters" });
    expect(await checkForm(newPasswordRules, { newPassword: "long enough" }, { token: "t".repeat(201) })).toEqual({});
    expect(await checkForm(confirmEmailRules, {}, { token: "t".repeat(201) })).toEqual({});
  });
});
