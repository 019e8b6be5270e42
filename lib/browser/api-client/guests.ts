import { queryOptions } from "@tanstack/react-query";
import { api, dataOf, type Schemas } from "./client";
import { API_BASE } from "./fetch-json";

// A guest's data with the host (decisions §16): what is kept of one email address, its export
// and its erasure.

export type GuestDataDto = Schemas["GuestData"];

export const guestKeys = { one: (email: string) => ["me", "guests", email.trim().toLowerCase()] as const };

const guest = (email: string) => ({ params: { path: { email: email.trim() } } });

export const guestQuery = (email: string) => queryOptions({ queryKey: guestKeys.one(email), queryFn: () => dataOf(api.GET("/me/guests/{email}", guest(email))) });

/** The export: the same JSON as a file, fetched by the browser itself with the session cookie. */
export const guestDownloadUrl = (email: string) => `${API_BASE}/me/guests/${encodeURIComponent(email.trim())}?download=1`;

export const eraseGuest = (email: string) => dataOf(api.DELETE("/me/guests/{email}", guest(email)));
