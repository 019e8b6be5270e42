import "server-only";
import type { ApiKeyRow, BookingRow, UserIdentityRow, OneTimeLinkRow, CalendarConnectionRow, CalendarRow, CallRow, EventTypeRow, TeamRow, UserRow, WebhookDeliveryRow, WebhookRow } from "@/db/schema";
import { caldavServerHostOf } from "@/lib/calendars/server-host";
import type { ApiScope } from "@/lib/schemas/api-key";
import type { BookingEvent } from "@/lib/schemas/webhook";
import { asLocale } from "@/lib/i18n/locales";
import { isoUtc, isoUtcOrNull } from "@/lib/time/instants";
import { bookingPageUrl, teamBookingPageUrl } from "@/lib/links";

// Rows to API shapes. The only place that decides what leaves the service: no hash, token or
// internal column is ever in these.

function identity(u: UserRow) {
  return { id: u.id, email: u.email, fullName: u.fullName, username: u.username, timezone: u.timezone };
}

export function toRegisteredUser(u: UserRow) {
  return { ...identity(u), emailVerified: u.emailVerified };
}

export function toProfile(u: UserRow) {
  return { ...identity(u), avatarUrl: u.avatarUrl, bio: u.bio, language: asLocale(u.language), createdAt: isoUtc(u.createdAt) };
}

export function toEventType(e: EventTypeRow, username: string) {
  return { ...eventTypeFields(e), scheduleId: e.scheduleId, publicUrl: bookingPageUrl(username, e.slug), createdAt: isoUtc(e.createdAt) };
}

function eventTypeFields(e: EventTypeRow) {
  return {
    id: e.id,
    slug: e.slug,
    title: e.title,
    durationMinutes: e.durationMinutes,
    bufferBeforeMinutes: e.bufferBeforeMinutes,
    bufferAfterMinutes: e.bufferAfterMinutes,
    slotIntervalMinutes: e.slotIntervalMinutes ?? e.durationMinutes,
    location: e.location,
    description: e.description,
    customQuestions: e.customQuestions,
    isActive: e.isActive,
    color: e.color,
    requiresConfirmation: e.requiresConfirmation,
    limits: e.limits,
    reminders: e.reminders,
    minNoticeHours: e.minNoticeHours,
    maxAdvanceDays: e.maxAdvanceDays,
    seats: e.seats,
    recurrence: e.recurrence,
    conflictCalendars: e.conflictCalendars ?? null,
    price: e.price ?? null,
  };
}

/** A team member as the team shows them: who they are, their role and whether they accepted. */
export type TeamMemberView = { userId: string; username: string; fullName: string; role: "owner" | "member"; status: "invited" | "active" };

export function toTeamMember(m: TeamMemberView) {
  return { userId: m.userId, username: m.username, fullName: m.fullName, role: m.role, status: m.status };
}

/** An invitation by email as the team's owners see it: the address, never whose it is. */
export type EmailInvitationDtoSource = { id: string; email: string; role: "owner" | "member"; createdAt: Date; expiresAt: Date };

export function toTeamEmailInvitation(i: EmailInvitationDtoSource) {
  return { id: i.id, email: i.email, role: i.role, status: "invited" as const, invitedAt: isoUtc(i.createdAt), expiresAt: isoUtc(i.expiresAt) };
}

/** A team; its invitations by email only where given (to its owners). */
export function toTeam(t: TeamRow, members: TeamMemberView[], emailInvitations?: EmailInvitationDtoSource[]) {
  return {
    id: t.id,
    slug: t.slug,
    name: t.name,
    bio: t.bio,
    createdAt: isoUtc(t.createdAt),
    members: members.map(toTeamMember),
    ...(emailInvitations ? { emailInvitations: emailInvitations.map(toTeamEmailInvitation) } : {}),
  };
}

/** An invitation waiting for the caller's answer: the team's name as given, the role, who sent it. */
export function toTeamInvitation(i: { team: { id: string; slug: string; name: string }; role: "owner" | "member"; invitedAt: Date; invitedBy: { userId: string; username: string; fullName: string } | null }) {
  return {
    team: { id: i.team.id, slug: i.team.slug, name: i.team.name },
    role: i.role,
    invitedAt: isoUtc(i.invitedAt),
    invitedBy: i.invitedBy && { userId: i.invitedBy.userId, username: i.invitedBy.username, fullName: i.invitedBy.fullName },
  };
}

/** A team event type: the personal fields, its booking page under /team/{teamSlug}, and how the team hosts it. */
export function toTeamEventType(e: EventTypeRow, teamSlug: string) {
  return {
    ...eventTypeFields(e),
    // Each host's own default schedule (decisions §15).
    scheduleId: null,
    publicUrl: teamBookingPageUrl(teamSlug, e.slug),
    createdAt: isoUtc(e.createdAt),
    teamId: e.teamId!,
    schedulingType: e.schedulingType!,
    hostIds: e.hostIds,
  };
}

/** Who a booking is with, as the API shows it: no host's address or zone leaves the service. */
export type BookingPeopleView = {
  hosts: { userId: string; username: string; fullName: string }[];
  team: { id: string; slug: string; name: string } | null;
  /** A seat's start (decisions §19); absent or null: not a seat. */
  seat?: { taken: number; max: number } | null;
  /** A recurring booking's series; absent or null: a single booking. */
  series?: { id: string; occurrences: { id: string; startTime: string; endTime: string; status: BookingRow["status"] }[] } | null;
};

/** A host as a guest's booking page shows them (personal or one of a team's). */
export function toPublicHost(h: UserRow) {
  return { fullName: h.fullName, username: h.username, avatarUrl: h.avatarUrl, timezone: h.timezone };
}

/** An event type as a guest's booking page shows it: no ids, limits or settings of the host's. */
export function toPublicEventType(e: EventTypeRow) {
  return {
    slug: e.slug,
    title: e.title,
    durationMinutes: e.durationMinutes,
    location: e.location,
    description: e.description,
    customQuestions: e.customQuestions,
    // Shown only where set, so a plain event type's answer is as it always was.
    ...(e.seats ? { seats: e.seats } : {}),
    ...(e.recurrence ? { recurrence: e.recurrence } : {}),
    ...(e.price ? { price: e.price } : {}),
  };
}

export function toBooking(b: BookingRow, eventType: { id: string; title: string }, people: BookingPeopleView) {
  return {
    id: b.id,
    eventType: { id: eventType.id, title: eventType.title },
    guestName: b.guestName,
    guestEmail: b.guestEmail,
    startTime: isoUtc(b.startTime),
    endTime: isoUtc(b.endTime),
    guestTimezone: b.guestTimezone,
    status: b.status,
    location: b.location,
    customAnswers: b.customAnswers,
    createdAt: isoUtc(b.createdAt),
    // With its milliseconds (the API's other times have none): two changes within a second are
    // two versions a client can tell apart.
    updatedAt: b.updatedAt.toISOString(),
    cancellationReason: b.cancellationReason,
    cancelledBy: b.cancelledBy,
    previousStartTime: isoUtcOrNull(b.previousStartTime),
    noShow: b.noShow,
    hosts: people.hosts.map(({ userId, username, fullName }) => ({ userId, username, fullName })),
    team: people.team && { id: people.team.id, slug: people.team.slug, name: people.team.name },
    seat: people.seat ?? null,
    series: people.series ?? null,
    payment: paymentOf(b),
  };
}

/** A paid booking's money as the booking shows it (decisions §20); null for a free one. */
export function paymentOf(b: Pick<BookingRow, "paymentStatus" | "priceAmount" | "priceCurrency">) {
  return b.paymentStatus && b.priceAmount !== null && b.priceCurrency ? { status: b.paymentStatus, amount: b.priceAmount, currency: b.priceCurrency } : null;
}

export type BookingDto = ReturnType<typeof toBooking>;

/** A webhook without its secrets (shown once, at creation or rotation, by their own answers). */
export function toWebhook(w: WebhookRow, now: number) {
  const rotating = w.previousSecretExpiresAt && w.previousSecretExpiresAt.getTime() > now ? w.previousSecretExpiresAt : null;
  return {
    id: w.id,
    url: w.url,
    events: w.events as BookingEvent[],
    eventTypeIds: w.eventTypeIds,
    isActive: w.isActive,
    disabledReason: w.disabledReason,
    previousSecretExpiresAt: isoUtcOrNull(rotating),
    createdAt: isoUtc(w.createdAt),
    updatedAt: isoUtc(w.updatedAt),
  };
}

export function toWebhookDelivery(d: WebhookDeliveryRow) {
  return {
    id: d.id,
    messageId: d.eventId,
    eventType: d.eventType,
    attempt: d.attempt,
    status: d.status,
    responseStatus: d.responseStatus,
    durationMs: d.durationMs,
    error: d.error,
    nextRetryAt: isoUtcOrNull(d.nextRetryAt),
    createdAt: isoUtc(d.createdAt),
    payload: d.payload,
  };
}

export function toCall(c: CallRow) {
  return {
    id: c.id,
    bookingId: c.bookingId,
    agent: c.agent,
    to: c.toNumber,
    providerCallSid: c.providerCallSid,
    status: c.status,
    error: c.error,
    createdAt: isoUtc(c.createdAt),
    updatedAt: isoUtc(c.updatedAt),
  };
}

export type CallDto = ReturnType<typeof toCall>;

/** A calendar connection with its calendars; credentials and tokens never leave the service. */
export function toCalendarConnection(c: CalendarConnectionRow, calendars: CalendarRow[]) {
  return {
    id: c.id,
    provider: c.provider,
    email: c.email,
    serverHost: caldavServerHostOf(c),
    calendars: calendars.map((cal) => ({ id: cal.id, name: cal.name, primary: cal.isPrimary, checkConflicts: cal.checkConflicts, writeTarget: cal.writeTarget, readOnly: cal.readOnly })),
    status: c.status,
    lastSyncedAt: isoUtcOrNull(c.lastSyncedAt),
    busyAsOf: isoUtcOrNull(c.busyAsOf),
    lastError: c.status === "connected" ? null : c.lastError,
    brokenSince: c.status === "connected" ? null : isoUtcOrNull(c.brokenSince),
    createdAt: isoUtc(c.createdAt),
  };
}

/** An API key as listed: never the key, nor its hash. */
/** A one-time link as its host sees it listed (its address is in the creation's answer only). */
export function toOneTimeLink(l: OneTimeLinkRow) {
  return { id: l.id, createdAt: isoUtc(l.createdAt), expiresAt: isoUtc(l.expiresAt) };
}

export function toApiKey(k: ApiKeyRow) {
  return {
    id: k.id,
    name: k.name,
    scopes: k.scopes as ApiScope[],
    prefix: k.prefix,
    createdAt: isoUtc(k.createdAt),
    expiresAt: isoUtcOrNull(k.expiresAt),
    lastUsedAt: isoUtcOrNull(k.lastUsedAt),
  };
}

/** A linked OIDC identity; `provider` is the sign-in's name on this server (OIDC_NAME). */
export function toIdentity(i: UserIdentityRow, provider: string) {
  return { id: i.id, provider, issuer: i.issuer, email: i.email, createdAt: isoUtc(i.createdAt), lastUsedAt: isoUtcOrNull(i.lastUsedAt) };
}
