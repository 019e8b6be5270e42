import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import type { Profile, UpdateProfileBody } from "@/lib/schemas/account";
import { fetchJson } from "./fetch-json";

// The host's account, for the dashboard: the profile (GET and PATCH /me), the password and the
// email. Types come from the API's own schemas, as types only.

export type ProfileDto = z.output<typeof Profile>;

/** ["me"] is the profile alone: every other resource of the host's sits below it, so it is invalidated `exact`. */
export const accountKeys = { me: ["me"] as const };

export const meQuery = () => queryOptions({ queryKey: accountKeys.me, queryFn: () => fetchJson<ProfileDto>("/me") });

export const updateProfile = (change: z.input<typeof UpdateProfileBody>) => fetchJson<ProfileDto>("/me", { method: "PATCH", body: change });

/** Changes the password; every earlier session ends, so the dashboard signs in again after. */
export const changePassword = (input: { currentPassword: string; newPassword: string }) =>
  fetchJson<{ accessToken: string }>("/me/password", { method: "POST", body: input });

/** Sends a link to the new address; the email changes when it is opened. */
export const requestEmailChange = (input: { newEmail: string; password: string }) => fetchJson<{ message: string }>("/me/email", { method: "POST", body: input });
