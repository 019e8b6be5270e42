import { z } from "zod";
import { calendarProviders, oauthProviders } from "./calendar-providers";
import { PathSegment, Text, Timestamp } from "./common";

// Calendar connections (decisions §9): the host's external calendars, their per-calendar flags,
// and the three ways in (OAuth for provider_a and provider_b, CalDAV for provider_c).

export const connectionStatuses = ["connected", "error", "reauth_required"] as const;

export const Calendar = z
  .object({
    id: z.string(),
    name: z.string(),
    primary: z.boolean().meta({ description: "The account's main calendar: what the connection is called in its reconnect email and banner" }),
    checkConflicts: z.boolean().meta({ description: "Busy times of this calendar count against availability" }),
    writeTarget: z.boolean().meta({ description: "New bookings are written to this calendar (at most one per host)" }),
    readOnly: z.boolean().meta({ description: "The account can only read this calendar (subscribed or shared): it cannot be the write target" }),
  })
  .meta({ id: "Calendar" });

export const CalendarConnection = z
  .object({
    id: z.string(),
    provider: z.enum(calendarProviders),
    email: z.string(),
    serverHost: z.string().nullable().meta({
      description: "provider_c: the CalDAV server's host when the host named one (serverUrl); null for the service's default server (Apple iCloud) and the other providers",
      example: "cloud.example.com",
    }),
    calendars: z.array(Calendar),
    status: z.enum(connectionStatuses).meta({
      description: "connected; error (the provider failed at the last sync: the last known busy times still count); reauth_required (the grant or password no longer works: connect again)",
    }),
    lastSyncedAt: Timestamp.nullable().meta({ description: "When busy times were last read successfully" }),
    busyAsOf: Timestamp.nullable().meta({
      description:
        "When the stored busy times were last known to match the provider: the start of the last good sync (also one a push notification starts). A check at booking proves only its range and does not move it. A booking asks the provider about its range when this is older than CALENDAR_FRESH_S (60 s).",
    }),
    lastError: z.string().nullable().meta({ description: "What went wrong at the last sync, or when a booking checked the calendar and got no answer, when status is not connected" }),
    brokenSince: Timestamp.nullable().meta({
      description:
        "Since when the connection has been in error or reauth_required (null: connected). After an hour its host gets a reconnect email, and one more 24 h later if still broken (decisions §21)",
    }),
    createdAt: Timestamp,
  })
  .meta({ id: "CalendarConnection" });

export const CalendarConnectionList = z.object({ data: z.array(CalendarConnection) });

export const ConnectionParams = z.object({ connectionId: PathSegment });
export const OAuthProviderParams = z.object({ provider: z.enum(oauthProviders) });

export const ConnectCalDavBody = z.strictObject({
  providerAccountId: Text.trim()
    .min(1, "Must not be empty")
    .max(320)
    .meta({ description: "The Apple ID (or the CalDAV server's user name)", example: "me@icloud.com" }),
  appSpecificPassword: Text.min(1, "Must not be empty")
    .max(256)
    .meta({ description: "An app-specific password (appleid.apple.com → Sign-In and Security)" }),
  serverUrl: z
    .url({ protocol: /^https?$/, error: "Must be an https:// address, e.g. https://cloud.example.com/remote.php/dav" })
    .max(2048)
    .optional()
    .meta({
      description:
        "The CalDAV server (Nextcloud, Fastmail, Radicale…); omitted: the service's default (Apple iCloud). Must be https and on a public address unless the service allows private ones (CALDAV_ALLOW_PRIVATE)",
      example: "https://cloud.example.com/remote.php/dav",
    }),
});

export const UpdateConnectionBody = z.strictObject({
  calendars: z
    .array(
      z.strictObject({
        id: PathSegment,
        checkConflicts: z.boolean().optional(),
        writeTarget: z.boolean().optional(),
      }),
    )
    .min(1, "List at least one calendar")
    .max(200)
    .refine((list) => new Set(list.map((c) => c.id)).size === list.length, { message: "Must not list a calendar twice" })
    .refine((list) => list.filter((c) => c.writeTarget === true).length <= 1, { message: "At most one calendar can be the write target" }),
});

/**
 * What a provider sends the browser back with: the code and our state, or an error (the person
 * declined). Providers add fields of their own (scope, session_state, iss…): they are ignored.
 */
export const OAuthCallbackQuery = z.looseObject({
  code: Text.max(4096).optional(),
  state: Text.max(4096).optional(),
  error: Text.max(200).optional(),
});
