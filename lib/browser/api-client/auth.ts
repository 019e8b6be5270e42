import { fetchJson } from "./fetch-json";

// The account pages' calls (/auth/…). Logging in is next-auth's (lib/auth/next-auth-options.ts).

/** Ends every token and session of the account (the dashboard's Log out does this first). */
export const signOutEverywhere = () => fetchJson<undefined>("/auth/logout", { method: "POST" });
