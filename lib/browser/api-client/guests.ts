import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import type { GuestData } from "@/lib/schemas/guest";
import { API_BASE, fetchJson } from "./fetch-json";

// A guest's data with the host (decisions §16): what is kept of one email address, its export
// and its erasure.

export type GuestDataDto = z.output<typeof GuestData>;

export const guestKeys = { one: (email: string) => ["me", "guests", email.trim().toLowerCase()] as const };

const guestPath = (email: string) => `/me/guests/${encodeURIComponent(email.trim())}`;

export const guestQuery = (email: string) => queryOptions({ queryKey: guestKeys.one(email), queryFn: () => fetchJson<GuestDataDto>(guestPath(email)) });

/** The export: the same JSON as a file, fetched by the browser itself with the session cookie. */
export const guestDownloadUrl = (email: string) => `${API_BASE}${guestPath(email)}?download=1`;

export const eraseGuest = (email: string) => fetchJson<undefined>(guestPath(email), { method: "DELETE" });
