import { api, dataOf, type BodyOf } from "./client";

// The account pages' calls (/auth/…): signing up, a forgotten password, the links account mail
// sends, and ending every session. Logging in is next-auth's (lib/auth/next-auth-options.ts).

export type RegisterInput = BodyOf<"/auth/register", "post">;

export const register = (input: RegisterInput) => dataOf(api.POST("/auth/register", { body: input }));

/** The answer is the same whether or not the address has an account; its message is shown as it is. */
export const requestPasswordReset = (email: string) => dataOf(api.POST("/auth/password-reset", { body: { email } }));

export const resetPassword = (token: string, newPassword: string) => dataOf(api.POST("/auth/password-reset/confirm", { body: { token, newPassword } }));

/** Spends the emailed link of an email change. */
export const confirmEmailChange = (token: string) => dataOf(api.POST("/auth/email-change/confirm", { body: { token } }));

/** Ends every token and session of the account (the dashboard's Log out does this first). */
export const signOutEverywhere = () => dataOf(api.POST("/auth/logout"));
