import "server-only";
import { getConfig } from "@/lib/config";

// Every address the service gives out, built from APP_URL in one place: the guest's links (in the
// booking's answer, its emails and its .ics), the public pages, the host's feed, the account mails,
// the OAuth callbacks and the calls webhook. APP_URL is read at call time (runtime configuration:
// one build serves any address).

const appUrl = () => getConfig().appUrl;

/** The guest's links; all carry the one secret token of the booking. */
export function guestLinks(token: string) {
  const app = appUrl();
  return {
    cancelUrl: `${app}/cancel/${token}`,
    rescheduleUrl: `${app}/reschedule/${token}`,
    manageUrl: `${app}/booking/${token}`,
    icsUrl: `${app}/api/v1/public/bookings/${token}.ics`,
  };
}

export type GuestLinks = ReturnType<typeof guestLinks>;

/** A host's public page, listing their active event types. */
export function hostPageUrl(username: string): string {
  return `${appUrl()}/${username}`;
}

/** An event type's booking page. */
export function bookingPageUrl(username: string, slug: string): string {
  return `${appUrl()}/${username}/${slug}`;
}

/** A team's public page, listing its active event types (decisions §15). */
export function teamPageUrl(teamSlug: string): string {
  return `${appUrl()}/team/${teamSlug}`;
}

/** A team event type's booking page. */
export function teamBookingPageUrl(teamSlug: string, slug: string): string {
  return `${appUrl()}/team/${teamSlug}/${slug}`;
}

/** A one-time link's booking page (decisions §21): the token is in this address only, never stored. */
export function oneTimeLinkUrl(token: string): string {
  return `${appUrl()}/d/${token}`;
}

/** The host's private calendar feed (decisions §14). */
export function feedUrl(token: string): string {
  return `${appUrl()}/feeds/${token}.ics`;
}

/** The dashboard's home: where the welcome email leads. */
export function dashboardUrl(): string {
  return `${appUrl()}/dashboard`;
}

/** The dashboard's calendars page: where a broken connection's email and banner lead to reconnect it. */
export function dashboardCalendarsUrl(): string {
  return `${appUrl()}/dashboard/calendars`;
}

/** The dashboard's bookings page: where a host's calendar entries and emails point. */
export function dashboardBookingsUrl(): string {
  return `${appUrl()}/dashboard/bookings`;
}

/** One booking on the dashboard's bookings page (a request's email leads there to confirm or decline it). */
export function dashboardBookingUrl(bookingId: string): string {
  return `${appUrl()}/dashboard/bookings?booking=${encodeURIComponent(bookingId)}`;
}

/** The dashboard's teams page, where a host answers their team invitations. */
export function teamInvitationsUrl(): string {
  return `${appUrl()}/dashboard/teams`;
}

/** Sign-up through a team invitation sent to an address without an account (its single-use secret). */
export function signUpWithInvitationUrl(token: string): string {
  return `${appUrl()}/register?invitation=${encodeURIComponent(token)}`;
}

export function confirmEmailUrl(token: string): string {
  return `${appUrl()}/confirm-email/${token}`;
}

export function forgotPasswordUrl(): string {
  return `${appUrl()}/forgot-password`;
}

export function resetPasswordUrl(token: string): string {
  return `${appUrl()}/reset-password/${token}`;
}

/** Where a calendar provider sends the host back after consent (registered with the provider). */
export function oauthCallbackUrl(provider: string): string {
  return `${appUrl()}/api/v1/oauth/callback/${provider}`;
}

/** Where a calendar provider POSTs its push notifications (decisions §17). */
export function calendarHookUrl(provider: "provider_a" | "provider_b"): string {
  return `${appUrl()}/api/v1/hooks/${provider}`;
}

/** A path on this site as an absolute URL (what a provider signs, what a webhook points at). */
export function siteUrl(pathAndQuery: string): string {
  return `${appUrl()}${pathAndQuery}`;
}

/** The site's address without its scheme, for reading aloud or in plain text ("booking.example.com/ann"). */
export function spokenSite(): string {
  return appUrl().replace(/^https?:\/\//, "");
}

/** Whether the site is served over https (cookies get `Secure` and the `__Host-`/`__Secure-` prefixes). */
export function siteIsHttps(): boolean {
  return appUrl().startsWith("https://");
}

/** The site's origin, what a browser sends as `Origin`. */
export function siteOrigin(): string {
  return new URL(appUrl()).origin;
}

/**
 * The domain the service names things under: booking UIDs and Message-IDs. The host name without
 * the port (decisions §12: `{bookingId}@{APP_URL host}`), so one booking never shows as two events.
 */
export function siteDomain(): string {
  return new URL(appUrl()).hostname;
}

/** The stable UID of a booking's calendar event, shared by the emails, the guest's .ics, the feed and the calendar writes. */
export function bookingUid(bookingId: string): string {
  return `${bookingId}@${siteDomain()}`;
}

/**
 * The stable UID of a seated start's one event in a host's calendar (decisions §19), from its seat
 * key (`<event type id>@<start ISO>`): `seat-<event type id>-<start epoch ms>@<domain>`, read back
 * by seatKeyOfUid (lib/services/bookings/calendar-write.ts).
 */
export function seatUid(seatKey: string): string {
  const at = seatKey.lastIndexOf("@");
  return `seat-${seatKey.slice(0, at)}-${Date.parse(seatKey.slice(at + 1))}@${siteDomain()}`;
}
