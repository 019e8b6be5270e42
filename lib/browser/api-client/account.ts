import { queryOptions } from "@tanstack/react-query";
import { api, dataOf, type AnswerOf, type BodyOf } from "./client";

// The host's account, for the dashboard: the profile (GET and PATCH /me), the password and the
// email. Paths, bodies and answers are the OpenAPI document's (client.ts).

export type ProfileDto = AnswerOf<"/me", "get">;

/** ["me"] is the profile alone: every other resource of the host's sits below it, so it is invalidated `exact`. */
export const accountKeys = { me: ["me"] as const };

export const meQuery = () => queryOptions({ queryKey: accountKeys.me, queryFn: () => dataOf(api.GET("/me")) });

export const updateProfile = (change: BodyOf<"/me", "patch">) => dataOf(api.PATCH("/me", { body: change }));

/** Changes the password; every earlier session ends, so the dashboard signs in again after. */
export const changePassword = (input: BodyOf<"/me/password", "post">) => dataOf(api.POST("/me/password", { body: input }));

/** Sends a link to the new address; the email changes when it is opened. */
export const requestEmailChange = (input: BodyOf<"/me/email", "post">) => dataOf(api.POST("/me/email", { body: input }));
