import { z } from "zod";
import { PathSegment, Text, Timestamp, WholeNumber } from "./common";

// API keys (decisions §18): what a script, Zapier or a CRM signs in with instead of a person's
// password. A key acts for its host within its scopes; `write` of a resource implies its `read`.

export const API_SCOPES = [
  "bookings:read",
  "bookings:write",
  "event-types:read",
  "event-types:write",
  "availability:read",
  "availability:write",
  "webhooks:read",
  "webhooks:write",
  "teams:read",
  "teams:write",
  "calendars:read",
  "profile:read",
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** What each scope lets a key do, in the words the dashboard shows beside its checkbox. */
export const SCOPE_WORDS: Record<ApiScope, string> = {
  "bookings:read": "See bookings, their history, guests and calls",
  "bookings:write": "Cancel, confirm, decline, reschedule bookings, mark no-shows, erase a guest's data",
  "event-types:read": "See event types and why a time is not offered",
  "event-types:write": "Create, change and delete event types",
  "availability:read": "See weekly hours, date overrides and schedules",
  "availability:write": "Change weekly hours, date overrides and schedules",
  "webhooks:read": "See webhooks and their deliveries",
  "webhooks:write": "Add, change, test and remove webhooks",
  "teams:read": "See teams, members and invitations",
  "teams:write": "Create and change teams, invite and remove members",
  "calendars:read": "See connected calendars (never their credentials)",
  "profile:read": "See the profile: name, username, time zone, language",
};

/** Whether a key with these scopes may do what `needed` allows: the scope itself, or `write` for a `read`. */
export function scopesAllow(scopes: readonly string[], needed: ApiScope): boolean {
  if (scopes.includes(needed)) return true;
  return needed.endsWith(":read") && scopes.includes(needed.replace(/:read$/, ":write"));
}

const ScopeList = z
  .array(z.string())
  .min(1, "Choose at least one scope")
  .superRefine((scopes, ctx) => {
    scopes.forEach((scope, i) => {
      if (!(API_SCOPES as readonly string[]).includes(scope)) {
        ctx.addIssue({ code: "custom", path: [i], message: `Unknown scope "${scope.slice(0, 40)}"; the scopes are ${API_SCOPES.join(", ")}` });
      } else if (scopes.indexOf(scope) !== i) ctx.addIssue({ code: "custom", path: [i], message: "Must not list a scope twice" });
    });
  })
  .transform((scopes) => scopes as ApiScope[])
  .meta({ description: `What the key may do: ${API_SCOPES.join(", ")}. A write scope includes the read of the same resource.` });

export const CreateApiKeyBody = z.strictObject({
  name: Text.trim().min(1, "Must not be empty").max(100, "Must be at most 100 characters").meta({ description: "What the key is for, e.g. “Zapier”", example: "Zapier" }),
  scopes: ScopeList,
  expiresInDays: WholeNumber(1, 730, "days").optional().meta({ description: "Days until the key stops working; it never expires when omitted" }),
});

export const ApiKeyParams = z.object({ keyId: PathSegment });

export const ApiKey = z
  .object({
    id: z.string().meta({ example: "key_3q8PZ0c1Zr2V9f4uWbq2Cg" }),
    name: z.string(),
    scopes: z.array(z.enum(API_SCOPES)),
    prefix: z.string().meta({ description: "The key's first 8 characters, to tell keys apart", example: "bk_Xq3vA" }),
    createdAt: Timestamp,
    expiresAt: Timestamp.nullable().meta({ description: "When it stops working; null: never" }),
    lastUsedAt: Timestamp.nullable().meta({ description: "When it last signed a request (to the minute); null: never used" }),
  })
  .meta({ id: "ApiKey" });

export const CreatedApiKey = ApiKey.extend({
  key: z.string().meta({ description: "The key itself (bk_…): shown in this answer only. Send it as `Authorization: Bearer bk_…`." }),
}).meta({ id: "CreatedApiKey" });

export const ApiKeyList = z.object({ data: z.array(ApiKey) });
