// The calendar providers by the names the API and the database use (decisions §2, §9): provider_a
// (Google), provider_b (Microsoft 365), provider_c (CalDAV, Apple iCloud by default). The names are
// part of the contract, so they live with the schemas, a room below the provider clients
// (lib/calendars), which take them from here. Pure: no imports.

export const calendarProviders = ["provider_a", "provider_b", "provider_c"] as const;
export type CalendarProviderId = (typeof calendarProviders)[number];

/** The providers connected by OAuth (the others by a login: CalDAV). */
export const oauthProviders = ["provider_a", "provider_b"] as const;
export type OAuthProviderId = (typeof oauthProviders)[number];

/** The providers' names as people know them (emails and the explain answer's words). */
export const PROVIDER_BRANDS: Record<CalendarProviderId, string> = {
  provider_a: "Google Calendar",
  provider_b: "Microsoft Outlook",
  provider_c: "Apple iCloud",
};
