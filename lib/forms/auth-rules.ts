import { ConfirmEmailChangeBody, ConfirmPasswordResetBody, LoginBody, PasswordResetBody, RegisterBody } from "@/lib/schemas/account";
import {
  registerBody,
  type ConfirmEmailContext,
  type ForgotPasswordValues,
  type LoginValues,
  type NewPasswordContext,
  type NewPasswordValues,
  type RegisterContext,
  type RegisterValues,
} from "./auth";
import type { FormRules } from "./resolver";

// The account pages' checks: the API's own schemas (lib/schemas/account.ts) over the bodies
// their forms send. This module brings zod with it: the pages load it when a form is first
// touched, through auth-lazy.ts, and never import it themselves.

export const registerRules: FormRules<RegisterValues, RegisterContext> = { schema: RegisterBody, toBody: registerBody };

/** next-auth signs in over the API's credential check: the same body, whose every value it takes. */
export const loginRules: FormRules<LoginValues> = { schema: LoginBody };

export const forgotPasswordRules: FormRules<ForgotPasswordValues> = { schema: PasswordResetBody };

export const newPasswordRules: FormRules<NewPasswordValues, NewPasswordContext> = {
  schema: ConfirmPasswordResetBody,
  toBody: (v, { token }) => ({ token, newPassword: v.newPassword }),
  fieldOf: (path) => (path === "newPassword" ? path : undefined),
};

/**
 * Confirming a new email: a problem with the link's token is the link's, which the API says (no
 * field shows it, so the browser's check lets it through).
 */
export const confirmEmailRules: FormRules<Record<string, never>, ConfirmEmailContext> = {
  schema: ConfirmEmailChangeBody,
  toBody: (_, { token }) => ({ token }),
  fieldOf: () => undefined,
};
