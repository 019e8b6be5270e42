import type { ApiScope } from "@/lib/schemas/api-key";

// What an API key needs for each route that acts for a host (decisions §18): the one table the
// route wrapper checks, the OpenAPI document declares and a test walks against every route.
// `person` routes never take a key, whatever its scopes: they manage the account's keys and
// credentials (password, email, username, calendar credentials, sessions), which need the
// person's own sign-in. A host route missing here is treated as `person` (closed by default), and
// the table test fails.

export type RouteAccess = ApiScope | "person";

export const ROUTE_SCOPES: Record<string, RouteAccess> = {
  // The profile: reading it is a scope; changing it (the username among it) is the person's.
  "GET /api/v1/me": "profile:read",
  "PATCH /api/v1/me": "person",
  "POST /api/v1/me/password": "person",
  "POST /api/v1/me/email": "person",
  "POST /api/v1/auth/logout": "person",
  "GET /api/v1/me/api-keys": "person",
  "POST /api/v1/me/api-keys": "person",
  "DELETE /api/v1/me/api-keys/{keyId}": "person",
  // Company sign-ins (decisions §22): seeing them is the profile's; unlinking one is a credential change.
  "GET /api/v1/me/identities": "profile:read",
  "DELETE /api/v1/me/identities/{identityId}": "person",

  "GET /api/v1/me/availability": "availability:read",
  "PUT /api/v1/me/availability": "availability:write",
  "GET /api/v1/me/schedules": "availability:read",
  "POST /api/v1/me/schedules": "availability:write",
  "GET /api/v1/me/schedules/{scheduleId}": "availability:read",
  "PUT /api/v1/me/schedules/{scheduleId}": "availability:write",
  "DELETE /api/v1/me/schedules/{scheduleId}": "availability:write",
  // Time off and public holidays are days off: the host's availability (decisions §21).
  "GET /api/v1/me/out-of-office": "availability:read",
  "POST /api/v1/me/out-of-office": "availability:write",
  "DELETE /api/v1/me/out-of-office/{id}": "availability:write",
  "GET /api/v1/me/holidays": "availability:read",
  "PUT /api/v1/me/holidays": "availability:write",

  "GET /api/v1/me/bookings": "bookings:read",
  "GET /api/v1/me/bookings/{bookingId}/history": "bookings:read",
  "GET /api/v1/me/payments": "bookings:read",
  "GET /api/v1/me/insights": "bookings:read",
  "POST /api/v1/me/bookings/{bookingId}/cancel": "bookings:write",
  "POST /api/v1/me/bookings/{bookingId}/confirm": "bookings:write",
  "POST /api/v1/me/bookings/{bookingId}/decline": "bookings:write",
  "POST /api/v1/me/bookings/{bookingId}/no-show": "bookings:write",
  "POST /api/v1/me/bookings/{bookingId}/reschedule": "bookings:write",
  "GET /api/v1/me/calls": "bookings:read",
  "GET /api/v1/me/guests/{email}": "bookings:read",
  "DELETE /api/v1/me/guests/{email}": "bookings:write",

  "GET /api/v1/me/event-types": "event-types:read",
  "POST /api/v1/me/event-types": "event-types:write",
  "PATCH /api/v1/me/event-types/{eventTypeId}": "event-types:write",
  "DELETE /api/v1/me/event-types/{eventTypeId}": "event-types:write",
  "GET /api/v1/me/event-types/{eventTypeId}/explain": "event-types:read",
  "GET /api/v1/me/event-types/{eventTypeId}/social-post": "event-types:read",
  "GET /api/v1/me/teams/{teamId}/event-types": "event-types:read",
  "POST /api/v1/me/teams/{teamId}/event-types": "event-types:write",
  "GET /api/v1/me/teams/{teamId}/event-types/{eventTypeId}": "event-types:read",
  "PATCH /api/v1/me/teams/{teamId}/event-types/{eventTypeId}": "event-types:write",
  "DELETE /api/v1/me/teams/{teamId}/event-types/{eventTypeId}": "event-types:write",
  "GET /api/v1/me/teams/{teamId}/event-types/{eventTypeId}/explain": "event-types:read",
  "GET /api/v1/me/event-types/{eventTypeId}/one-time-links": "event-types:read",
  "POST /api/v1/me/event-types/{eventTypeId}/one-time-links": "event-types:write",
  "DELETE /api/v1/me/event-types/{eventTypeId}/one-time-links/{linkId}": "event-types:write",
  "GET /api/v1/me/teams/{teamId}/event-types/{eventTypeId}/one-time-links": "event-types:read",
  "POST /api/v1/me/teams/{teamId}/event-types/{eventTypeId}/one-time-links": "event-types:write",
  "DELETE /api/v1/me/teams/{teamId}/event-types/{eventTypeId}/one-time-links/{linkId}": "event-types:write",

  "GET /api/v1/me/webhooks": "webhooks:read",
  "POST /api/v1/me/webhooks": "webhooks:write",
  "GET /api/v1/me/webhooks/{webhookId}": "webhooks:read",
  "PATCH /api/v1/me/webhooks/{webhookId}": "webhooks:write",
  "DELETE /api/v1/me/webhooks/{webhookId}": "webhooks:write",
  "GET /api/v1/me/webhooks/{webhookId}/deliveries": "webhooks:read",
  "POST /api/v1/me/webhooks/{webhookId}/rotate-secret": "webhooks:write",
  "POST /api/v1/me/webhooks/{webhookId}/test": "webhooks:write",

  "GET /api/v1/me/teams": "teams:read",
  "POST /api/v1/me/teams": "teams:write",
  "GET /api/v1/me/teams/{teamId}": "teams:read",
  "PATCH /api/v1/me/teams/{teamId}": "teams:write",
  "DELETE /api/v1/me/teams/{teamId}": "teams:write",
  "POST /api/v1/me/teams/{teamId}/accept": "teams:write",
  "GET /api/v1/me/team-invitations": "teams:read",
  "POST /api/v1/me/teams/{teamId}/members": "teams:write",
  "PATCH /api/v1/me/teams/{teamId}/members/{userId}": "teams:write",
  "DELETE /api/v1/me/teams/{teamId}/members/{userId}": "teams:write",
  "DELETE /api/v1/me/teams/{teamId}/invitations/{invitationId}": "teams:write",

  // Calendars: a key sees the connections; connecting, changing or removing one handles its
  // credentials (or starts an OAuth grant), and the private feed's link is a credential itself.
  "GET /api/v1/me/calendar-connections": "calendars:read",
  "GET /api/v1/me/calendar-connections/{connectionId}": "calendars:read",
  "PATCH /api/v1/me/calendar-connections/{connectionId}": "person",
  "DELETE /api/v1/me/calendar-connections/{connectionId}": "person",
  "POST /api/v1/me/calendar-connections/{connectionId}/sync": "person",
  "POST /api/v1/me/calendar-connections/provider_c": "person",
  "GET /api/v1/me/calendar-connections/oauth/{provider}/authorize": "person",
  "POST /api/v1/me/calendar-feed": "person",
};

/** What a key needs for a route (`METHOD path`, the path as mounted); `person` when the route is not listed. */
export function routeAccess(method: string, path: string | undefined): RouteAccess {
  return (path && ROUTE_SCOPES[`${method} ${path}`]) || "person";
}
