import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/store/database";
import { bookings, calendarConnections, calendars, emailChanges, eventTypes, passwordResets, teamEmailInvitations, teamMembers, teams, userIdentities, users } from "@/db/schema";
import { sealCredentials } from "@/lib/calendars";
import { getConfig } from "@/lib/config";
import { newId } from "@/lib/ids";
import { oauthNonceCookieName, startOAuth } from "@/lib/services/calendars/oauth";
import { call } from "./api";
import { clientHeaders, dateIn, insertBookingRow } from "./booking";
import { unique } from "./factories";
import { QUESTIONS, type Fixture } from "./fuzz-fixture";
import type { RequestShape } from "./route-fuzz";

// A valid request for every operation of the API, the baseline the fuzzer mutates: a new route
// needs one here (or a reason in SKIPPED), or the coverage test of no-5xx.property.test.ts fails.

const auth = (fx: Fixture) => ({ authorization: `Bearer ${fx.host.token}` });

/** A new token for the fixture's host (for the routes that end every earlier one). */
async function freshToken(fx: Fixture): Promise<string> {
  const res = await call("POST", "/auth/login", { body: { email: fx.host.email, password: fx.host.password }, headers: clientHeaders() });
  return res.body.accessToken ?? "signed-out";
}
const none = { params: {}, query: {}, headers: {} };
/** The address of a new booking's guest (a guest of the fixture's host). */
async function guestEmailOf(fx: Fixture): Promise<string> {
  const { id } = await fx.book();
  const [row] = await (await getDb()).select({ email: bookings.guestEmail }).from(bookings).where(eq(bookings.id, id));
  return row!.email;
}

const publicParams = (fx: Fixture) => ({ username: fx.host.username, eventSlug: fx.eventType.slug });

/** A schedule's body: named hours in their own zone, an override among them. */
function scheduleBody() {
  return {
    name: "Evenings",
    timezone: "America/New_York",
    weeklyRules: [{ dayOfWeek: 2, startTime: "18:00", endTime: "21:00" }],
    dateOverrides: [{ date: dateIn(12, "UTC"), available: false }],
  };
}

/** A new schedule of the fixture's host, not the default and in use by nothing. */
async function scheduleOf(fx: Fixture): Promise<string> {
  const created = await call("POST", "/me/schedules", { token: fx.host.token, body: scheduleBody() });
  fx.hostRequests += 1;
  return created.body.id;
}

/** A valid request per operation ("METHOD /template"), built afresh for every run. */
export const operations: Record<string, (fx: Fixture) => Promise<RequestShape> | RequestShape> = {
  "GET /health": () => none,
  "GET /openapi.json": () => none,
  "POST /auth/register": () => {
    const username = unique("reg");
    return { ...none, body: { email: `${username}@example.com`, password: "correct horse battery", fullName: "Reg Host", username, timezone: "Europe/Berlin" } };
  },
  "POST /auth/login": (fx) => ({ ...none, body: { email: fx.host.email, password: fx.host.password } }),
  // Both end every token of the host: each run signs in afresh, so the next run has one that works.
  "POST /auth/logout": async (fx) => ({ ...none, headers: { authorization: `Bearer ${await freshToken(fx)}` } }),
  "POST /me/password": async (fx) => ({
    ...none,
    headers: { authorization: `Bearer ${await freshToken(fx)}` },
    body: { currentPassword: fx.host.password, newPassword: fx.host.password },
  }),
  "POST /auth/password-reset": (fx) => ({ ...none, headers: clientHeaders(), body: { email: fx.host.email } }),
  // A live link of the fixture's host, made in the table (the emailed one is only in the mail).
  "POST /auth/password-reset/confirm": async (fx) => {
    const token = randomBytes(32).toString("base64url");
    const tokenHash = createHash("sha256").update(token).digest("base64url");
    await (await getDb()).insert(passwordResets).values({ id: newId("pwr"), userId: fx.host.id, tokenHash, expiresAt: new Date(Date.now() + 3_600_000) });
    return { ...none, headers: clientHeaders(), body: { token, newPassword: fx.host.password } };
  },
  "POST /me/email": async (fx) => ({
    ...none,
    headers: { ...clientHeaders(), ...auth(fx) },
    body: { newEmail: `${unique("moved")}@example.com`, password: fx.host.password },
  }),
  // A live link to a new address, made in the table; each run moves the fixture's host to it,
  // so the next run's host logs in with that address.
  "POST /auth/email-change/confirm": async (fx) => {
    const token = randomBytes(32).toString("base64url");
    const tokenHash = createHash("sha256").update(token).digest("base64url");
    const newEmail = `${unique("confirmed")}@example.com`;
    await (await getDb()).insert(emailChanges).values({ id: newId("emc"), userId: fx.host.id, newEmail, tokenHash, expiresAt: new Date(Date.now() + 3_600_000) });
    return { ...none, headers: clientHeaders(), body: { token } };
  },
  "GET /me": (fx) => ({ ...none, headers: auth(fx) }),
  "PATCH /me": (fx) => ({ ...none, headers: auth(fx), body: { fullName: "Renamed Host", timezone: "Asia/Kolkata", avatarUrl: "https://example.com/a.png" } }),
  "GET /me/availability": (fx) => ({ ...none, headers: auth(fx) }),
  "PUT /me/availability": (fx) => ({
    ...none,
    headers: auth(fx),
    body: {
      timezone: "UTC",
      minNoticeHours: 0,
      maxAdvanceDays: 730,
      weeklyRules: [
        { dayOfWeek: 1, startTime: "09:00", endTime: "12:00" },
        { dayOfWeek: 1, startTime: "13:00", endTime: "24:00" },
      ],
      dateOverrides: [
        { date: dateIn(10, "UTC"), available: true, intervals: [{ startTime: "10:00", endTime: "11:00" }] },
        { date: dateIn(11, "UTC"), available: false },
      ],
    },
  }),
  "GET /me/schedules": (fx) => ({ ...none, headers: auth(fx) }),
  "POST /me/schedules": (fx) => ({ ...none, headers: auth(fx), body: scheduleBody() }),
  "GET /me/schedules/{scheduleId}": async (fx) => ({ ...none, headers: auth(fx), params: { scheduleId: await scheduleOf(fx) } }),
  "PUT /me/schedules/{scheduleId}": async (fx) => ({ ...none, headers: auth(fx), params: { scheduleId: await scheduleOf(fx) }, body: scheduleBody() }),
  "DELETE /me/schedules/{scheduleId}": async (fx) => ({ ...none, headers: auth(fx), params: { scheduleId: await scheduleOf(fx) } }),
  "GET /me/out-of-office": (fx) => ({ ...none, headers: auth(fx) }),
  // Far ahead and a different year each run, so no two runs' periods overlap.
  "POST /me/out-of-office": (fx) => ({ ...none, headers: auth(fx), body: outOfOfficeBody() }),
  "DELETE /me/out-of-office/{id}": async (fx) => ({ ...none, headers: auth(fx), params: { id: await outOfOfficeOf(fx) } }),
  "GET /me/holidays": (fx) => ({ ...none, headers: auth(fx) }),
  "PUT /me/holidays": (fx) => ({ ...none, headers: auth(fx), body: { country: "DE", region: "BY", workingOn: [dateIn(30, "UTC")] } }),
  "GET /me/event-types": (fx) => ({ ...none, headers: auth(fx) }),
  "POST /me/event-types": (fx) => ({ ...none, headers: auth(fx), body: eventTypeBody() }),
  "PATCH /me/event-types/{eventTypeId}": (fx) => ({
    ...none,
    headers: auth(fx),
    params: { eventTypeId: fx.eventType.id },
    body: { ...eventTypeBody(), isActive: true },
  }),
  "DELETE /me/event-types/{eventTypeId}": async (fx) => {
    const created = await call("POST", "/me/event-types", { token: fx.host.token, body: eventTypeBody() });
    fx.hostRequests += 1;
    return { ...none, headers: auth(fx), params: { eventTypeId: created.body.id } };
  },
  "GET /me/bookings": (fx) => ({
    ...none,
    headers: auth(fx),
    query: { status: "pending,confirmed", noShow: "false", from: dateIn(0, "UTC"), to: dateIn(30, "UTC"), page: "1", limit: "20" },
  }),
  "POST /me/bookings/{bookingId}/cancel": async (fx) => ({ ...none, headers: auth(fx), params: { bookingId: (await fx.book()).id }, body: { reason: "Out sick" } }),
  "POST /me/bookings/{bookingId}/reschedule": async (fx) => ({
    ...none,
    headers: auth(fx),
    params: { bookingId: (await fx.book()).id },
    body: { startTime: fx.nextSlot() },
  }),
  "POST /me/bookings/{bookingId}/confirm": async (fx) => ({ ...none, headers: auth(fx), params: { bookingId: await pendingBookingOf(fx) } }),
  "POST /me/bookings/{bookingId}/decline": async (fx) => ({ ...none, headers: auth(fx), params: { bookingId: await pendingBookingOf(fx) }, body: { reason: "Fully booked" } }),
  "POST /me/bookings/{bookingId}/no-show": async (fx) => ({ ...none, headers: auth(fx), params: { bookingId: await pastBookingOf(fx) }, body: { noShow: true } }),
  "GET /me/payments": (fx) => ({ ...none, headers: auth(fx), query: { from: dateIn(-30, "UTC"), to: dateIn(30, "UTC"), status: "paid", page: "1", limit: "20" } }),
  "GET /me/insights": (fx) => ({ ...none, headers: auth(fx), query: { from: dateIn(-30, "UTC"), to: dateIn(30, "UTC"), eventTypeId: fx.eventType.id } }),
  "GET /me/bookings/{bookingId}/history": async (fx) => ({ ...none, headers: auth(fx), params: { bookingId: (await fx.book()).id } }),
  "POST /public/cancel": async (fx) => ({ ...none, body: { token: (await fx.book()).token } }),
  "POST /public/reschedule": async (fx) => ({ ...none, body: { token: (await fx.book()).token, startTime: fx.nextSlot() } }),
  "GET /me/event-types/{eventTypeId}/explain": (fx) => ({ ...none, headers: auth(fx), params: { eventTypeId: fx.eventType.id }, query: { startTime: fx.nextSlot() } }),
  "POST /me/calendar-feed": (fx) => ({ ...none, headers: auth(fx) }),
  "GET /public/bookings/{token}.ics": async (fx) => ({ ...none, params: { token: `${(await fx.book()).token}.ics` } }),
  "GET /me/webhooks": (fx) => ({ ...none, headers: auth(fx) }),
  "POST /me/webhooks": (fx) => ({ ...none, headers: auth(fx), body: { url: "https://hooks.example.com/booking", events: ["booking.created", "booking.cancelled"] } }),
  "GET /me/webhooks/{webhookId}": async (fx) => ({ ...none, headers: auth(fx), params: { webhookId: await webhookOf(fx) } }),
  "PATCH /me/webhooks/{webhookId}": async (fx) => ({
    ...none,
    headers: auth(fx),
    params: { webhookId: await webhookOf(fx) },
    body: { url: "https://hooks.example.com/other", events: ["booking.rescheduled"], isActive: true },
  }),
  "DELETE /me/webhooks/{webhookId}": async (fx) => ({ ...none, headers: auth(fx), params: { webhookId: await webhookOf(fx) } }),
  "GET /me/webhooks/{webhookId}/deliveries": async (fx) => ({ ...none, headers: auth(fx), params: { webhookId: await webhookOf(fx) }, query: { page: "1", limit: "20" } }),
  "POST /me/webhooks/{webhookId}/test": async (fx) => ({ ...none, headers: auth(fx), params: { webhookId: await webhookOf(fx) } }),
  "POST /me/webhooks/{webhookId}/rotate-secret": async (fx) => ({ ...none, headers: auth(fx), params: { webhookId: await webhookOf(fx) } }),
  "GET /me/api-keys": (fx) => ({ ...none, headers: auth(fx) }),
  "POST /me/api-keys": (fx) => ({ ...none, headers: auth(fx), body: { name: "Fuzzed key", scopes: ["bookings:read", "event-types:write"], expiresInDays: 30 } }),
  "DELETE /me/api-keys/{keyId}": async (fx) => ({ ...none, headers: auth(fx), params: { keyId: await apiKeyOf(fx) } }),
  "GET /me/identities": (fx) => ({ ...none, headers: auth(fx) }),
  "DELETE /me/identities/{identityId}": async (fx) => ({ ...none, headers: auth(fx), params: { identityId: await identityOf(fx) } }),
  "GET /public/{username}/{eventSlug}": (fx) => ({ ...none, params: publicParams(fx) }),
  "GET /public/{username}/{eventSlug}/slots": (fx) => ({
    ...none,
    params: publicParams(fx),
    headers: clientHeaders(),
    query: { from: dateIn(2, "UTC"), to: dateIn(3, "UTC"), timezone: "Europe/Berlin" },
  }),
  "GET /public/{username}/{eventSlug}/series": (fx) => ({
    ...none,
    params: publicParams(fx),
    headers: clientHeaders(),
    query: { startTime: fx.nextSlot(), occurrences: "3", timezone: "Europe/Berlin" },
  }),
  "GET /public/teams/{teamSlug}/{eventSlug}/series": async (fx) => ({
    ...none,
    params: await publicTeamParams(fx),
    headers: clientHeaders(),
    query: { startTime: fx.nextSlot(), occurrences: "2", timezone: "Europe/Berlin" },
  }),
  "GET /me/teams/{teamId}/event-types/{eventTypeId}/explain": async (fx) => ({ ...none, headers: auth(fx), params: await teamEventTypeOf(fx), query: { startTime: fx.nextSlot() } }),
  "GET /public/teams/{teamSlug}/{eventSlug}": async (fx) => ({ ...none, params: await publicTeamParams(fx) }),
  "GET /public/teams/{teamSlug}/{eventSlug}/slots": async (fx) => ({
    ...none,
    params: await publicTeamParams(fx),
    headers: clientHeaders(),
    query: { from: dateIn(2, "UTC"), to: dateIn(3, "UTC"), timezone: "Europe/Berlin" },
  }),
  "POST /public/teams/{teamSlug}/{eventSlug}/bookings": async (fx) => ({
    ...none,
    params: await publicTeamParams(fx),
    headers: { "idempotency-key": randomUUID() },
    body: { startTime: fx.nextSlot(), guestName: "Grace Guest", guestEmail: `${unique("guest")}@example.com`, guestTimezone: "Asia/Kolkata", customAnswers: {} },
  }),
  "POST /public/{username}/{eventSlug}/bookings": (fx) => ({
    ...none,
    params: publicParams(fx),
    headers: { "idempotency-key": randomUUID() },
    body: {
      startTime: fx.nextSlot(),
      guestName: "Grace Guest",
      guestEmail: `${unique("guest")}@example.com`,
      guestTimezone: "Asia/Kolkata",
      customAnswers: { topic: "Intro", notes: "None", phone: "+1 415 555 0100" },
    },
  }),
  "GET /me/event-types/{eventTypeId}/social-post": (fx) => ({ ...none, headers: auth(fx), params: { eventTypeId: fx.eventType.id } }),
  "GET /me/guests/{email}": async (fx) => ({ ...none, headers: auth(fx), params: { email: await guestEmailOf(fx) }, query: { download: "1" } }),
  "DELETE /me/guests/{email}": async (fx) => ({ ...none, headers: auth(fx), params: { email: await guestEmailOf(fx) } }),
  "GET /me/calls": async (fx) => ({ ...none, headers: auth(fx), query: { bookingId: (await fx.book()).id, page: "1", limit: "20" } }),
  "GET /me/calendar-connections": (fx) => ({ ...none, headers: auth(fx) }),
  "GET /me/calendar-connections/{connectionId}": async (fx) => ({ ...none, headers: auth(fx), params: { connectionId: await connectionOf(fx) } }),
  "PATCH /me/calendar-connections/{connectionId}": async (fx) => {
    const connectionId = await connectionOf(fx);
    const [calendar] = await (await getDb()).select({ id: calendars.id }).from(calendars).where(eq(calendars.connectionId, connectionId));
    return { ...none, headers: auth(fx), params: { connectionId }, body: { calendars: [{ id: calendar!.id, checkConflicts: false, writeTarget: true }] } };
  },
  "DELETE /me/calendar-connections/{connectionId}": async (fx) => ({ ...none, headers: auth(fx), params: { connectionId: await connectionOf(fx) } }),
  "POST /me/calendar-connections/{connectionId}/sync": async (fx) => ({ ...none, headers: auth(fx), params: { connectionId: await connectionOf(fx) } }),
  "GET /me/calendar-connections/oauth/{provider}/authorize": (fx) => ({ ...none, headers: auth(fx), params: { provider: "provider_b" } }),
  "GET /oauth/callback/{provider}": (fx) => {
    // A fresh state each run (a state is used once), brought back by the browser holding its nonce.
    const { consentUrl, nonce } = startOAuth(fx.host, "provider_a");
    const state = new URL(consentUrl).searchParams.get("state")!;
    const headers = { cookie: `${oauthNonceCookieName()}=${nonce}` };
    return { ...none, headers, params: { provider: "provider_a" }, query: { code: "4/fuzz-code", state, scope: "https://www.googleapis.com/auth/calendar.readonly" } };
  },
  // Push notifications (decisions §17): well-formed, naming no channel of ours (answered alike).
  "POST /hooks/provider_a": () => ({
    ...none,
    headers: { "x-goog-channel-id": randomUUID(), "x-goog-channel-token": "fuzz-token", "x-goog-resource-id": "fuzz-resource", "x-goog-resource-state": "exists" },
  }),
  "POST /hooks/provider_b": () => ({
    ...none,
    body: { value: [{ subscriptionId: randomUUID(), clientState: "fuzz-state", changeType: "updated", resource: "Users/x/Events/y" }] },
  }),
  // Stripe's events (decisions §20): one signed with the endpoint's secret, of a kind that changes
  // nothing; every mutation breaks the signature, or names no Checkout of ours.
  "POST /hooks/stripe": () => {
    const payments = (getConfig().payments ??= { secretKey: "sk_test_fuzzfuzzfuzz", webhookSecret: "whsec_fuzzfuzzfuzz", apiUrl: "http://127.0.0.1:9", holdMinutes: 15 });
    const body = { id: `evt_${randomUUID()}`, object: "event", type: "customer.created", data: { object: { id: "cus_fuzz", object: "customer" } } };
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac("sha256", payments.webhookSecret).update(`${t}.${JSON.stringify(body)}`).digest("hex");
    return { ...none, headers: { "stripe-signature": `t=${t},v1=${v1}` }, body };
  },
  "GET /contracts/social-page": () => none,
  "POST /contracts/social-page/validate": () => ({
    ...none,
    body: {
      mediaType: "video",
      record: {
        id: "vid-1",
        caption: "Our studio",
        status: "ready",
        video: { url: "https://cdn.example.com/a.mp4", mimeType: "video/mp4", durationSeconds: 42, width: 1080, height: 1920, thumbnailUrl: "https://cdn.example.com/a.jpg" },
      },
    },
  }),
  "GET /me/teams": async (fx) => {
    await teamOf(fx);
    return { ...none, headers: auth(fx) };
  },
  "GET /me/team-invitations": async (fx) => {
    await teamOf(fx, { role: "member", status: "invited" });
    return { ...none, headers: auth(fx), query: { page: "1", limit: "20" } };
  },
  "POST /me/teams": (fx) => ({ ...none, headers: auth(fx), body: { slug: unique("fz-team"), name: "Fuzzed team" } }),
  "GET /me/teams/{teamId}": async (fx) => ({ ...none, headers: auth(fx), params: { teamId: await teamOf(fx) } }),
  "PATCH /me/teams/{teamId}": async (fx) => ({ ...none, headers: auth(fx), params: { teamId: await teamOf(fx) }, body: { slug: unique("fz-team"), name: "Renamed team" } }),
  "DELETE /me/teams/{teamId}": async (fx) => ({ ...none, headers: auth(fx), params: { teamId: await teamOf(fx) } }),
  "POST /me/teams/{teamId}/accept": async (fx) => {
    const teamId = await teamOf(fx, { role: "member", status: "invited" });
    return { ...none, headers: auth(fx), params: { teamId } };
  },
  "POST /me/teams/{teamId}/members": async (fx) => ({
    ...none,
    headers: auth(fx),
    params: { teamId: await teamOf(fx) },
    body: { username: (await someone()).username, role: "member" },
  }),
  "DELETE /me/teams/{teamId}/invitations/{invitationId}": async (fx) => {
    const teamId = await teamOf(fx);
    const invitationId = newId("tinv");
    await (await getDb())
      .insert(teamEmailInvitations)
      .values({ id: invitationId, teamId, email: `${unique("fz-invitee")}@example.com`, role: "member", invitedBy: fx.host.id, tokenHash: randomUUID(), expiresAt: new Date(Date.now() + 86_400_000) });
    return { ...none, headers: auth(fx), params: { teamId, invitationId } };
  },
  "PATCH /me/teams/{teamId}/members/{userId}": async (fx) => {
    const teamId = await teamOf(fx);
    return { ...none, headers: auth(fx), params: { teamId, userId: await memberOf(teamId) }, body: { role: "owner" } };
  },
  "DELETE /me/teams/{teamId}/members/{userId}": async (fx) => {
    const teamId = await teamOf(fx);
    return { ...none, headers: auth(fx), params: { teamId, userId: await memberOf(teamId) } };
  },
  "GET /me/teams/{teamId}/event-types": async (fx) => ({ ...none, headers: auth(fx), params: { teamId: await teamOf(fx) } }),
  "POST /me/teams/{teamId}/event-types": async (fx) => ({
    ...none,
    headers: auth(fx),
    params: { teamId: await teamOf(fx) },
    body: { ...eventTypeBody(), schedulingType: "round_robin", hostIds: [fx.host.id] },
  }),
  "GET /me/teams/{teamId}/event-types/{eventTypeId}": async (fx) => ({ ...none, headers: auth(fx), params: await teamEventTypeOf(fx) }),
  "PATCH /me/teams/{teamId}/event-types/{eventTypeId}": async (fx) => ({
    ...none,
    headers: auth(fx),
    params: await teamEventTypeOf(fx),
    body: { ...eventTypeBody(), isActive: true, schedulingType: "collective", hostIds: [fx.host.id], recurrence: null },
  }),
  "DELETE /me/teams/{teamId}/event-types/{eventTypeId}": async (fx) => ({ ...none, headers: auth(fx), params: await teamEventTypeOf(fx) }),
  "GET /me/event-types/{eventTypeId}/one-time-links": (fx) => ({ ...none, headers: auth(fx), params: { eventTypeId: fx.eventType.id } }),
  "POST /me/event-types/{eventTypeId}/one-time-links": (fx) => ({ ...none, headers: auth(fx), params: { eventTypeId: fx.eventType.id }, body: { expiresInDays: 30 } }),
  "DELETE /me/event-types/{eventTypeId}/one-time-links/{linkId}": async (fx) => ({
    ...none,
    headers: auth(fx),
    params: { eventTypeId: fx.eventType.id, linkId: (await linkOf(fx, `/me/event-types/${fx.eventType.id}`)).id },
  }),
  "GET /me/teams/{teamId}/event-types/{eventTypeId}/one-time-links": async (fx) => ({ ...none, headers: auth(fx), params: await teamEventTypeOf(fx) }),
  "POST /me/teams/{teamId}/event-types/{eventTypeId}/one-time-links": async (fx) => ({ ...none, headers: auth(fx), params: await teamEventTypeOf(fx), body: { expiresInDays: 1 } }),
  "DELETE /me/teams/{teamId}/event-types/{eventTypeId}/one-time-links/{linkId}": async (fx) => {
    const params = await teamEventTypeOf(fx);
    const { id } = await linkOf(fx, `/me/teams/${params.teamId}/event-types/${params.eventTypeId}`);
    return { ...none, headers: auth(fx), params: { ...params, linkId: id } };
  },
  "GET /public/links/{token}": async (fx) => ({ ...none, params: { token: (await linkOf(fx, `/me/event-types/${fx.eventType.id}`)).token } }),
  "GET /public/links/{token}/slots": async (fx) => ({
    ...none,
    params: { token: (await linkOf(fx, `/me/event-types/${fx.eventType.id}`)).token },
    headers: clientHeaders(),
    query: { from: dateIn(2, "UTC"), to: dateIn(3, "UTC"), timezone: "Europe/Berlin" },
  }),
  "POST /public/links/{token}/bookings": async (fx) => ({
    ...none,
    params: { token: (await linkOf(fx, `/me/event-types/${fx.eventType.id}`)).token },
    headers: { "idempotency-key": randomUUID() },
    body: {
      startTime: fx.nextSlot(),
      guestName: "Grace Guest",
      guestEmail: `${unique("guest")}@example.com`,
      guestTimezone: "Asia/Kolkata",
      customAnswers: { topic: "Intro", notes: "None", phone: "+1 415 555 0100" },
    },
  }),
};

/** A new one-time link of an event type (`path`: the event type's, the host's or a team's): its id and token. */
async function linkOf(fx: Fixture, path: string): Promise<{ id: string; token: string }> {
  const created = await call("POST", `${path}/one-time-links`, { token: fx.host.token, body: {} });
  fx.hostRequests += 1;
  return { id: created.body.id, token: String(created.body.url).split("/").pop()! };
}

/**
 * A new team with the fixture host in it (its active owner unless told otherwise), written
 * straight into the tables: every run gets its own, so no run's change (a rename, a deletion, a
 * member leaving) blinds the next.
 */
async function teamOf(fx: Fixture, as: { role: "owner" | "member"; status: "invited" | "active" } = { role: "owner", status: "active" }): Promise<string> {
  const db = await getDb();
  const id = newId("team");
  await db.insert(teams).values({ id, slug: unique("fz-team"), name: "Fuzz team" });
  if (as.role !== "owner" || as.status !== "active") {
    await db.insert(teamMembers).values({ teamId: id, userId: (await someone()).id, role: "owner", status: "active" });
  }
  await db.insert(teamMembers).values({ teamId: id, userId: fx.host.id, ...as, expiresAt: as.status === "invited" ? new Date(Date.now() + 86_400_000) : null });
  return id;
}

/** A user written straight into the table (no password hashing): someone to invite or remove. */
async function someone(): Promise<{ id: string; username: string }> {
  const username = unique("fz-member");
  const id = newId("usr");
  await (await getDb()).insert(users).values({ id, email: `${username}@example.com`, passwordHash: "x", fullName: "Fuzz Member", username, timezone: "UTC" });
  return { id, username };
}

/** An active member of the team (not the fixture host). */
async function memberOf(teamId: string): Promise<string> {
  const { id } = await someone();
  await (await getDb()).insert(teamMembers).values({ teamId, userId: id, role: "member", status: "active" });
  return id;
}

/** A team event type hosted by the fixture host, in a new team of theirs. */
async function teamEventTypeOf(fx: Fixture): Promise<{ teamId: string; eventTypeId: string }> {
  const teamId = await teamOf(fx);
  const eventTypeId = newId("evt");
  await (await getDb()).insert(eventTypes).values({
    id: eventTypeId,
    teamId,
    schedulingType: "round_robin",
    hostIds: [fx.host.id],
    slug: unique("fz-team-call"),
    title: "Team call",
    durationMinutes: 30,
    // Recurring, so its series preview has a valid baseline (decisions §19).
    recurrence: { everyWeeks: 1, maxOccurrences: 4 },
  });
  return { teamId, eventTypeId };
}

/** The public paths of a round-robin team event type hosted by the fixture host. */
async function publicTeamParams(fx: Fixture): Promise<{ teamSlug: string; eventSlug: string }> {
  const { teamId, eventTypeId } = await teamEventTypeOf(fx);
  const db = await getDb();
  const [team] = await db.select().from(teams).where(eq(teams.id, teamId));
  const [type] = await db.select().from(eventTypes).where(eq(eventTypes.id, eventTypeId));
  return { teamSlug: team!.slug, eventSlug: type!.slug };
}

/** A fresh webhook of the fixture host (a host keeps at most 20: delete the one made before). */
/** A period of time off in a year of its own (runs never overlap one another). */
let outOfOfficeYears = 0;
function outOfOfficeBody() {
  outOfOfficeYears += 1;
  const year = 2100 + outOfOfficeYears;
  return { startDate: `${year}-03-02`, endDate: `${year}-03-06`, note: "Conference", redirectUsername: null };
}

/** A new period of time off of the fixture's host. */
async function outOfOfficeOf(fx: Fixture): Promise<string> {
  const created = await call("POST", "/me/out-of-office", { token: fx.host.token, body: outOfOfficeBody() });
  fx.hostRequests += 1;
  if (created.status !== 201) throw new Error(`out-of-office fixture: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.id;
}

/** A company sign-in linked to the fixture's host (who has a password, so it may be unlinked). */
async function identityOf(fx: Fixture): Promise<string> {
  const id = newId("idn");
  await (await getDb()).insert(userIdentities).values({ id, userId: fx.host.id, issuer: "https://id.example.com", subject: id });
  return id;
}

/** A new API key of the fixture's host. */
async function apiKeyOf(fx: Fixture): Promise<string> {
  const created = await call("POST", "/me/api-keys", { token: fx.host.token, body: { name: "To revoke", scopes: ["profile:read"] } });
  fx.hostRequests += 1;
  return created.body.id;
}

async function webhookOf(fx: Fixture): Promise<string> {
  const made = await call("POST", "/me/webhooks", { token: fx.host.token, body: { url: "https://hooks.example.com/fuzz" } });
  fx.hostRequests += 1;
  if (made.status !== 201) throw new Error(`webhook fixture: ${made.status} ${JSON.stringify(made.body)}`);
  const previous = (fx as Fixture & { lastWebhook?: string }).lastWebhook;
  if (previous) {
    await call("DELETE", `/me/webhooks/${previous}`, { token: fx.host.token });
    fx.hostRequests += 1;
  }
  (fx as Fixture & { lastWebhook?: string }).lastWebhook = made.body.id;
  return made.body.id;
}

/**
 * A CalDAV connection of the fixture host, written straight into the tables: its server is a
 * closed loopback port, so a sync fails fast (status error) without any network.
 */
async function connectionOf(fx: Fixture): Promise<string> {
  const db = await getDb();
  const id = newId("cal");
  await db.insert(calendarConnections).values({
    id,
    userId: fx.host.id,
    provider: "provider_c",
    email: `${unique("cal")}@example.com`,
    credentialsEncrypted: sealCredentials({ username: "fuzz", password: "fuzz", serverUrl: "http://127.0.0.1:9" }),
  });
  await db.insert(calendars).values({ id: newId("cld"), connectionId: id, userId: fx.host.id, externalId: "http://127.0.0.1:9/fuzz/", name: "Fuzz" });
  return id;
}

/** Mounted routes this test does not fuzz, each with its reason. */
export const SKIPPED: Record<string, string> = {
  "POST /me/calendar-connections/provider_c":
    "a valid body makes the service log in to the CalDAV server, and an unreachable one is 503 provider_unavailable by design; its validation is tested in calendars-caldav.test.ts",
};

/** A request waiting for the host's answer on a slot of its own, written to the table (the fixture's event type takes bookings without approval). */
async function pendingBookingOf(fx: Fixture): Promise<string> {
  const { row } = await insertBookingRow(fx.host.id, fx.eventType.id, new Date(fx.nextSlot()), 30, { status: "pending" });
  return row.id;
}

/** A confirmed booking that started hours ago, an hour further back each time (the API books no past), for the no-show mark. */
let pastBookings = 0;
async function pastBookingOf(fx: Fixture): Promise<string> {
  pastBookings += 1;
  const { row } = await insertBookingRow(fx.host.id, fx.eventType.id, new Date(Date.now() - pastBookings * 3_600_000), 30);
  return row.id;
}

function eventTypeBody() {
  return {
    slug: unique("fz"),
    title: "Fuzzed call",
    durationMinutes: 30,
    bufferBeforeMinutes: 5,
    bufferAfterMinutes: 5,
    slotIntervalMinutes: 15,
    location: "Zoom",
    description: "Talk",
    customQuestions: QUESTIONS,
    color: "#2563eb",
    // Every calendar marked checkConflicts (decisions §21); the only value a team's takes too.
    conflictCalendars: null,
  };
}
