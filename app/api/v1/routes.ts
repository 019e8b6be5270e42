// Every route module of the API (not a route itself: Next.js serves only route.ts files).
// The OpenAPI document is built from this list, and a test walks app/api/v1 (and the site
// routes' folders) to make sure no route.ts is missing from it.
import * as register from "./auth/register/route";
import * as login from "./auth/login/route";
import * as logout from "./auth/logout/route";
import * as password from "./me/password/route";
import * as passwordReset from "./auth/password-reset/route";
import * as passwordResetConfirm from "./auth/password-reset/confirm/route";
import * as changeEmail from "./me/email/route";
import * as emailChangeConfirm from "./auth/email-change/confirm/route";
import * as health from "./health/route";
import * as me from "./me/route";
import * as availability from "./me/availability/route";
import * as schedules from "./me/schedules/route";
import * as schedule from "./me/schedules/[scheduleId]/route";
import * as eventTypes from "./me/event-types/route";
import * as eventType from "./me/event-types/[eventTypeId]/route";
import * as socialPost from "./me/event-types/[eventTypeId]/social-post/route";
import * as explain from "./me/event-types/[eventTypeId]/explain/route";
import * as bookings from "./me/bookings/route";
import * as hostCancel from "./me/bookings/[bookingId]/cancel/route";
import * as reschedule from "./me/bookings/[bookingId]/reschedule/route";
import * as confirmBooking from "./me/bookings/[bookingId]/confirm/route";
import * as declineBooking from "./me/bookings/[bookingId]/decline/route";
import * as noShow from "./me/bookings/[bookingId]/no-show/route";
import * as bookingHistory from "./me/bookings/[bookingId]/history/route";
import * as payments from "./me/payments/route";
import * as insights from "./me/insights/route";
import * as calls from "./me/calls/route";
import * as guest from "./me/guests/[email]/route";
import * as publicEvent from "./public/[username]/[eventSlug]/route";
import * as publicSlots from "./public/[username]/[eventSlug]/slots/route";
import * as publicSeries from "./public/[username]/[eventSlug]/series/route";
import * as publicBookings from "./public/[username]/[eventSlug]/bookings/route";
import * as publicTeamEvent from "./public/teams/[teamSlug]/[eventSlug]/route";
import * as publicTeamSlots from "./public/teams/[teamSlug]/[eventSlug]/slots/route";
import * as publicTeamSeries from "./public/teams/[teamSlug]/[eventSlug]/series/route";
import * as publicTeamBookings from "./public/teams/[teamSlug]/[eventSlug]/bookings/route";
import * as guestCancel from "./public/cancel/route";
import * as socialPage from "./contracts/social-page/route";
import * as socialPageValidate from "./contracts/social-page/validate/route";
import * as siteHealth from "@/app/health/route";
import * as callsRoot from "@/app/api/calls/route";
import * as callsReminder from "@/app/api/calls/reminder/outbound/route";
import * as callsFollowup from "@/app/api/calls/followup/outbound/route";
import * as callsWebhook from "@/app/api/calls/webhook/route";
import * as guestReschedule from "./public/reschedule/route";
import * as calendarFeed from "./me/calendar-feed/route";
import * as guestIcs from "./public/bookings/[token]/route";
import * as webhooks from "./me/webhooks/route";
import * as webhook from "./me/webhooks/[webhookId]/route";
import * as webhookDeliveries from "./me/webhooks/[webhookId]/deliveries/route";
import * as webhookTest from "./me/webhooks/[webhookId]/test/route";
import * as webhookRotateSecret from "./me/webhooks/[webhookId]/rotate-secret/route";
import * as calendarConnections from "./me/calendar-connections/route";
import * as calendarConnectCalDav from "./me/calendar-connections/provider_c/route";
import * as calendarConnection from "./me/calendar-connections/[connectionId]/route";
import * as calendarConnectionSync from "./me/calendar-connections/[connectionId]/sync/route";
import * as calendarAuthorize from "./me/calendar-connections/oauth/[provider]/authorize/route";
import * as oauthCallback from "./oauth/callback/[provider]/route";
import * as googleHook from "./hooks/provider_a/route";
import * as graphHook from "./hooks/provider_b/route";
import * as stripeHook from "./hooks/stripe/route";
import * as teams from "./me/teams/route";
import * as team from "./me/teams/[teamId]/route";
import * as teamAccept from "./me/teams/[teamId]/accept/route";
import * as teamInvitations from "./me/team-invitations/route";
import * as teamMembers from "./me/teams/[teamId]/members/route";
import * as teamMember from "./me/teams/[teamId]/members/[userId]/route";
import * as teamEmailInvitation from "./me/teams/[teamId]/invitations/[invitationId]/route";
import * as teamEventTypes from "./me/teams/[teamId]/event-types/route";
import * as teamEventType from "./me/teams/[teamId]/event-types/[eventTypeId]/route";
import * as teamExplain from "./me/teams/[teamId]/event-types/[eventTypeId]/explain/route";
import * as apiKeys from "./me/api-keys/route";
import * as apiKey from "./me/api-keys/[keyId]/route";
import * as identities from "./me/identities/route";
import * as identity from "./me/identities/[identityId]/route";
import * as oneTimeLinks from "./me/event-types/[eventTypeId]/one-time-links/route";
import * as oneTimeLink from "./me/event-types/[eventTypeId]/one-time-links/[linkId]/route";
import * as teamOneTimeLinks from "./me/teams/[teamId]/event-types/[eventTypeId]/one-time-links/route";
import * as teamOneTimeLink from "./me/teams/[teamId]/event-types/[eventTypeId]/one-time-links/[linkId]/route";
import * as publicLink from "./public/links/[token]/route";
import * as publicLinkSlots from "./public/links/[token]/slots/route";
import * as publicLinkBookings from "./public/links/[token]/bookings/route";
import * as outOfOffice from "./me/out-of-office/route";
import * as outOfOfficePeriod from "./me/out-of-office/[id]/route";
import * as holidays from "./me/holidays/route";
import type { EndpointHandlers } from "@/lib/http/route";

export type RouteModule = Pick<EndpointHandlers, "GET" | "POST" | "PUT" | "PATCH" | "DELETE">;

/** The routes under /api/v1. */
export const routeModules: RouteModule[] = [
  health,
  register,
  login,
  logout,
  passwordReset,
  passwordResetConfirm,
  changeEmail,
  emailChangeConfirm,
  me,
  password,
  availability,
  schedules,
  schedule,
  outOfOffice,
  outOfOfficePeriod,
  holidays,
  eventTypes,
  eventType,
  socialPost,
  explain,
  bookings,
  hostCancel,
  reschedule,
  confirmBooking,
  declineBooking,
  noShow,
  bookingHistory,
  payments,
  insights,
  calendarConnections,
  calendarConnectCalDav,
  calendarConnection,
  calendarConnectionSync,
  calendarAuthorize,
  oauthCallback,
  googleHook,
  stripeHook,
  graphHook,
  webhooks,
  webhook,
  webhookDeliveries,
  webhookTest,
  webhookRotateSecret,
  calls,
  guest,
  guestCancel,
  guestReschedule,
  calendarFeed,
  guestIcs,
  publicEvent,
  publicSlots,
  publicSeries,
  publicBookings,
  socialPage,
  socialPageValidate,
  teams,
  team,
  teamAccept,
  teamInvitations,
  teamMembers,
  teamMember,
  teamEmailInvitation,
  teamEventTypes,
  teamEventType,
  teamExplain,
  apiKeys,
  apiKey,
  identities,
  identity,
  publicTeamEvent,
  publicTeamSlots,
  publicTeamSeries,
  publicTeamBookings,
  oneTimeLinks,
  oneTimeLink,
  teamOneTimeLinks,
  teamOneTimeLink,
  publicLink,
  publicLinkSlots,
  publicLinkBookings,
];

/** The routes outside /api/v1 that go through the same wrapper: the outbound-calling service. */
export const siteRouteModules: RouteModule[] = [siteHealth, callsRoot, callsReminder, callsFollowup, callsWebhook];
