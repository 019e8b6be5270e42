import { ConfirmEmailChangeBody, ConfirmPasswordResetBody, LoginBody, PasswordResetBody, RegisterBody } from "@/lib/schemas/account";
import type { FormRules } from "./resolver";

// The account pages' forms (sign up, log in, a forgotten password, a new one, confirming a new
// email), checked in the browser with the API's own schemas (lib/schemas/account.ts) before
// anything is sent, in the API's own words; their fields are the bodies' own.

export type RegisterValues = { fullName: string; email: string; password: string; username: string; timezone: string };
/** A team invitation's sign-up link: the account is made with its secret (decisions §15). */
export type RegisterContext = { invitationToken?: string };

export const registerBody = (v: RegisterValues, { invitationToken }: RegisterContext = {}) => ({ ...v, ...(invitationToken ? { invitationToken } : {}) });

export const registerRules: FormRules<RegisterValues, RegisterContext> = { schema: RegisterBody, toBody: registerBody };

/** "Zoë Müller-Smith" → "zoe-muller-smith": a username suggestion in the API's alphabet. */
export function usernameFrom(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
}

export type LoginValues = { email: string; password: string };
/** next-auth signs in over the API's credential check: the same body, whose every value it takes. */
export const loginRules: FormRules<LoginValues> = { schema: LoginBody };

export type ForgotPasswordValues = { email: string };
export const forgotPasswordRules: FormRules<ForgotPasswordValues> = { schema: PasswordResetBody };

export type NewPasswordValues = { newPassword: string };
/** The reset link's token: no field shows it (a problem with it is the link's, said instead of the form). */
export type NewPasswordContext = { token: string };
export const newPasswordRules: FormRules<NewPasswordValues, NewPasswordContext> = {
  schema: ConfirmPasswordResetBody,
  toBody: (v, { token }) => ({ token, newPassword: v.newPassword }),
  fieldOf: (path) => (path === "newPassword" ? path : undefined),
};

/**
 * Confirming a new email is one button: the body is the link's token alone, and a problem with
 * it is the link's, which the API says (no field shows it, so the browser's check lets it through).
 */
export type ConfirmEmailContext = { token: string };
export const confirmEmailRules: FormRules<Record<string, never>, ConfirmEmailContext> = {
  schema: ConfirmEmailChangeBody,
  toBody: (_, { token }) => ({ token }),
  fieldOf: () => undefined,
};
