import type { z } from "zod";
import type { RegisterBody } from "@/lib/schemas/account";
import { fetchJson } from "./fetch-json";

// The account pages' calls (/auth/…): signing up, a forgotten password, the links account mail
// sends, and ending every session. Logging in is next-auth's (lib/auth/next-auth-options.ts).

export type RegisterInput = z.input<typeof RegisterBody>;

/** A message the page shows as it is ("If an account uses this address, …"). */
type Message = { message: string };

export const register = (input: RegisterInput) => fetchJson<unknown>("/auth/register", { method: "POST", body: input });

/** The answer is the same whether or not the address has an account. */
export const requestPasswordReset = (email: string) => fetchJson<Message>("/auth/password-reset", { method: "POST", body: { email } });

export const resetPassword = (token: string, newPassword: string) =>
  fetchJson<Message>("/auth/password-reset/confirm", { method: "POST", body: { token, newPassword } });

/** Spends the emailed link of an email change. */
export const confirmEmailChange = (token: string) => fetchJson<Message>("/auth/email-change/confirm", { method: "POST", body: { token } });

/** Ends every token and session of the account (the dashboard's Log out does this first). */
export const signOutEverywhere = () => fetchJson<undefined>("/auth/logout", { method: "POST" });
