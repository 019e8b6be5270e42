import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { calls } from "@/db/schema";
import { getConfig, setConfig, type Config } from "@/lib/config";
import { api, site, TEST_ORIGIN } from "../support/api";
import { book, dateIn, getSlots, insertBookingRow, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { startFakeTelephony, type FakeTelephony } from "../support/fake-telephony";

withTestDatabase();

const WEBHOOK = "/api/calls/webhook";
const FROM = "+14155550100";
const DAY = 86_400_000;

let provider: FakeTelephony;
let original: Config;

beforeAll(async () => {
  provider = await startFakeTelephony();
  original = getConfig();
});
afterAll(async () => {
  setConfig(original);
  await provider.close();
});
afterEach(() => {
  provider.behave({ kind: "ok" });
  setConfig(original);
});

/** The service configured with the fake provider's credentials. */
function withProvider(timeoutMs = 10_000) {
  setConfig({
    ...original,
    calls: { baseUrl: provider.url, accountSid: provider.accountSid, authToken: provider.authToken, fromNumber: FROM, timeoutMs },
  });
}

/**
 * Signs a status callback the way Twilio documents it, written here independently of the
 * service's code: HMAC-SHA1 (auth token) over the URL and each field's name and value, sorted by name.
 */
function twilioSignature(token: string, url: string, fields: Record<string, string>): string {
  const names = Object.keys(fields).sort();
  const hmac = createHmac("sha1", token);
  hmac.update(url);
  for (const name of names) hmac.update(`${name}${fields[name]}`);
  return hmac.digest("base64");
}

function callback(fields: Record<string, string>, signature: string | undefined) {
  return site.post(WEBHOOK, undefined, {
    rawBody: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", ...(signature ? { "x-twilio-signature": signature } : {}) },
  });
}

function statusFields(callSid: string, status: string): Record<string, string> {
  return { AccountSid: provider.accountSid, CallSid: callSid, CallStatus: status, From: FROM, To: "+14155550123", Direction: "outbound-api", ApiVersion: "2010-04-01", CallDuration: "17" };
}

const outbound = (agent: "reminder" | "followup", host: TestHost, bookingId: unknown) =>
  site.post(`/api/calls/${agent}/outbound`, { bookingId }, { token: host.token });

async function callRow(id: string) {
  const [row] = await (await getDb()).select().from(calls).where(eq(calls.id, id));
  return row;
}

/** A Berlin guest's booking at a fixed instant, with a phone answer (written directly: the past cannot be booked). */
async function bookingWithPhone(host: TestHost, start: string, extra: Record<string, unknown> = {}) {
  const et = await createEventType(host, {
    title: "Intro call",
    customQuestions: [
      { id: "topic", label: "Topic" },
      { id: "phone", label: "Phone", type: "phone" },
    ],
  });
  const { row } = await insertBookingRow(host.id, et.id, new Date(start), 30, {
    guestName: "Grace Hopper",
    guestTimezone: "Europe/Berlin",
    customAnswers: { topic: "Compilers", phone: "+14155550123" },
    ...extra,
  });
  return { et, booking: row };
}

describe("the outbound-calling service's root and health", () => {
  it("GET /api/calls describes the service: name, domain, port, both agents and their endpoints", async () => {
    const res = await site.get("/api/calls");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      service: "Booking outbound calls",
      domain: "http://booking.test",
      port: 3000,
      agents: ["reminder", "followup"],
      endpoints: {
        health: "GET /health",
        reminder: "POST /api/calls/reminder/outbound",
        followup: "POST /api/calls/followup/outbound",
        webhook: "POST /api/calls/webhook",
      },
    });
  });

  it("GET /health at the site root answers like /api/v1/health", async () => {
    const res = await site.get("/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect((await site.post("/health", {})).status).toBe(405);
  });
});

describe("without telephony credentials", () => {
  it("answers 401 without a token, then 503 provider_unavailable before reading the body (even an invalid one)", async () => {
    const host = await createHost();
    for (const agent of ["reminder", "followup"]) {
      const anonymous = await site.post(`/api/calls/${agent}/outbound`, { bookingId: "bkg_x" });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error).toBe("unauthorized");
      for (const rawBody of ["{not json", JSON.stringify({ nonsense: 1 }), ""]) {
        const res = await site.post(`/api/calls/${agent}/outbound`, undefined, { token: host.token, rawBody, headers: { "content-type": "application/json" } });
        expect(res.status, rawBody).toBe(503);
        expect(res.body).toEqual({ error: "provider_unavailable", message: expect.stringContaining("CALLS_ACCOUNT_SID"), details: {} });
      }
    }
    // Nor can a status callback be checked without the token that signs it.
    expect((await callback(statusFields("CAx", "completed"), "x")).status).toBe(503);
    expect(provider.received).toHaveLength(0);
  });
});

describe("placing calls through the provider", () => {
  it("the reminder dials the guest's E.164 number with Basic auth and says what, with whom and when in the guest's zone", async () => {
    withProvider();
    const host = await createHost({ fullName: "Ada Lovelace", timezone: "America/New_York" });
    const { booking } = await bookingWithPhone(host, "2030-03-15T08:00:00Z", { location: "Room <B> & Co" });
    const sent = provider.received.length;

    const res = await outbound("reminder", host, booking.id);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(provider.received).toHaveLength(sent + 1);
    const req = provider.received.at(-1)!;
    expect(req.path).toBe(`/2010-04-01/Accounts/${provider.accountSid}/Calls.json`);
    expect(req.authorization).toBe(`Basic ${Buffer.from(`${provider.accountSid}:${provider.authToken}`).toString("base64")}`);
    expect(req.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(req.form.get("To")).toBe("+14155550123");
    expect(req.form.get("From")).toBe(FROM);
    expect(req.form.get("StatusCallback")).toBe("http://booking.test/api/calls/webhook");
    const twiml = req.form.get("Twiml")!;
    expect(twiml).toMatch(/^<Response><Say>[^<]*<\/Say><\/Response>$/);
    // 08:00 UTC is 9:00 in Berlin (the guest), 4:00 in New York (the host): the guest's time is said.
    expect(twiml).toContain("Your Intro call with Ada Lovelace is on Friday, March 15, 2030 at 9:00 AM Central European Standard Time.");
    expect(twiml).toContain("Hello Grace Hopper");
    expect(twiml).toContain("The location is: Room &lt;B&gt; &amp; Co.");
    expect(twiml).not.toMatch(/2030-03-15|08:00|Europe\/Berlin/);

    expect(res.body).toEqual({
      id: expect.stringMatching(/^call_[\w-]{22}$/),
      bookingId: booking.id,
      agent: "reminder",
      to: "+14155550123",
      providerCallSid: req.sid,
      status: "queued",
      error: null,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    const list = await api.get("/me/calls", { token: host.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ data: [res.body], pagination: { page: 1, limit: 20, total: 1 } });
  });

  it("calls the number a guest gave when booking through the public API, normalised to E.164", async () => {
    withProvider();
    const host = await createHost({ timezone: "Europe/Berlin" });
    const et = await createEventType(host, { customQuestions: [{ id: "mobile", label: "Mobile", type: "phone", required: true }] });
    const date = dateIn(8, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    const made = await book(host, et.slug, slot!.startTime, { customAnswers: { mobile: "+44 20 7946 0958" }, guestTimezone: "America/Chicago" });
    expect(made.status, JSON.stringify(made.body)).toBe(201);

    const res = await outbound("reminder", host, made.body.id);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(provider.received.at(-1)!.form.get("To")).toBe("+442079460958");
    expect(res.body.to).toBe("+442079460958");
    // Said in the guest's zone (Chicago), not the host's (Berlin).
    expect(provider.received.at(-1)!.form.get("Twiml")).toMatch(/Central (Standard|Daylight) Time/);
  });

  it("the follow-up offers to book again after a cancellation and after a missed (past, confirmed) booking, naming the booking page", async () => {
    withProvider();
    const host = await createHost({ fullName: "Ada Lovelace" });
    const { et, booking: cancelled } = await bookingWithPhone(host, "2030-03-15T08:00:00Z", { status: "cancelled", cancelledBy: "guest" });
    const res = await outbound("followup", host, cancelled.id);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.agent).toBe("followup");
    let twiml = provider.received.at(-1)!.form.get("Twiml")!;
    expect(twiml).toContain("Your Intro call with Ada Lovelace on Friday, March 15, 2030 at 9:00 AM Central European Standard Time was cancelled.");
    expect(twiml).toContain(`please visit Ada Lovelace&apos;s booking page at booking.test/${host.username}/${et.slug}.`);

    const { row: missed } = await insertBookingRow(host.id, et.id, new Date(Date.now() - 2 * DAY), 30, {
      guestTimezone: "Europe/Berlin",
      customAnswers: { phone: "+14155550123" },
    });
    const again = await outbound("followup", host, missed.id);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    twiml = provider.received.at(-1)!.form.get("Twiml")!;
    expect(twiml).toContain("We missed you at your Intro call with Ada Lovelace on");
    expect(twiml).toContain(`booking.test/${host.username}/${et.slug}`);

    // An event type no longer offered: the host's page is named instead of a page that is gone.
    expect((await api.patch(`/me/event-types/${et.id}`, { isActive: false }, { token: host.token })).status).toBe(200);
    expect((await outbound("followup", host, missed.id)).status).toBe(201);
    expect(provider.received.at(-1)!.form.get("Twiml")).toContain(`booking page at booking.test/${host.username}.`);
  });
});

describe("status callbacks", () => {
  async function placedCall() {
    withProvider();
    const host = await createHost();
    const { booking } = await bookingWithPhone(host, "2030-04-01T10:00:00Z");
    const res = await outbound("reminder", host, booking.id);
    expect(res.status).toBe(201);
    return { host, call: res.body };
  }

  it("a signed callback moves the record forward; a stale one after it changes nothing", async () => {
    const { host, call } = await placedCall();
    const url = `${TEST_ORIGIN}${WEBHOOK}`;
    const ringing = statusFields(call.providerCallSid, "ringing");
    expect((await callback(ringing, twilioSignature(provider.authToken, url, ringing))).status).toBe(204);
    expect((await callRow(call.id))!.status).toBe("ringing");

    const completed = statusFields(call.providerCallSid, "completed");
    expect((await callback(completed, twilioSignature(provider.authToken, url, completed))).status).toBe(204);
    // Delivered late, out of order: a final status stays.
    expect((await callback(ringing, twilioSignature(provider.authToken, url, ringing))).status).toBe(204);
    const [listed] = (await api.get("/me/calls", { token: host.token })).body.data;
    expect(listed).toMatchObject({ id: call.id, status: "completed", error: null });
  });

  it("a failed call keeps the provider's error", async () => {
    const { call } = await placedCall();
    const fields = { ...statusFields(call.providerCallSid, "failed"), ErrorCode: "32009", ErrorMessage: "Your TwiML could not be executed" };
    expect((await callback(fields, twilioSignature(provider.authToken, `${TEST_ORIGIN}${WEBHOOK}`, fields))).status).toBe(204);
    expect(await callRow(call.id)).toMatchObject({ status: "failed", error: "Your TwiML could not be executed" });
  });

  it("refuses unsigned and forged callbacks with 403 and changes nothing; an unknown CallSid is 404", async () => {
    const { call } = await placedCall();
    const before = await callRow(call.id);
    const url = `${TEST_ORIGIN}${WEBHOOK}`;
    const fields = statusFields(call.providerCallSid, "completed");
    const forgeries = [
      undefined, // unsigned
      twilioSignature("not-the-token", url, fields), // another key
      twilioSignature(provider.authToken, "http://attacker.test/api/calls/webhook", fields), // signed for another URL
      twilioSignature(provider.authToken, url, { ...fields, CallStatus: "ringing" }), // fields changed after signing
      "RSOYDt4T1cUTdK1PDd93/VVr8B8=",
    ];
    for (const signature of forgeries) {
      const res = await callback(fields, signature);
      expect(res.status, String(signature)).toBe(403);
      expect(res.body.error).toBe("forbidden");
    }
    expect(await callRow(call.id)).toEqual(before);

    const unknown = statusFields("CA00000000000000000000000000000000", "completed");
    expect((await callback(unknown, twilioSignature(provider.authToken, url, unknown))).status).toBe(404);
    // Signed, but not a status the provider has.
    const odd = statusFields(call.providerCallSid, "exploded");
    const res = await callback(odd, twilioSignature(provider.authToken, url, odd));
    expect(res.status).toBe(400);
    expect(res.body.details.issues).toEqual([expect.objectContaining({ path: "CallStatus" })]);
    expect(await callRow(call.id)).toEqual(before);
  });
});

describe("when the provider fails", () => {
  it("a 500 from the provider is 503 provider_unavailable, and the call is recorded as failed", async () => {
    withProvider();
    const host = await createHost();
    const { booking } = await bookingWithPhone(host, "2030-05-01T10:00:00Z");
    provider.behave({ kind: "fail", status: 500 });
    const res = await outbound("reminder", host, booking.id);
    expect(res.status).toBe(503);
    expect(res.body.error).toBe("provider_unavailable");
    expect(res.body.details).toMatchObject({ providerStatus: 500, callId: expect.stringMatching(/^call_/) });
    const [listed] = (await api.get("/me/calls", { token: host.token })).body.data;
    expect(listed).toMatchObject({ id: res.body.details.callId, status: "failed", providerCallSid: null, error: expect.stringContaining("HTTP 500") });
  });

  it("a provider that does not answer within the timeout is 503, and the call is recorded as failed", async () => {
    withProvider(300);
    const host = await createHost();
    const { booking } = await bookingWithPhone(host, "2030-05-02T10:00:00Z");
    provider.behave({ kind: "hang" });
    const started = Date.now();
    const res = await outbound("followup", host, (await insertBookingRow(host.id, booking.eventTypeId, new Date(Date.now() - DAY), 30, { customAnswers: { phone: "+14155550123" } })).row.id);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(res.status).toBe(503);
    expect(res.body.error).toBe("provider_unavailable");
    expect(await callRow(res.body.details.callId)).toMatchObject({ status: "failed", agent: "followup", error: "no answer within 300 ms" });
  });
});

describe("which bookings can be called", () => {
  it("400 when the booking has no phone answer", async () => {
    withProvider();
    const host = await createHost();
    const { booking: noAnswer } = await bookingWithPhone(host, "2030-06-01T10:00:00Z", { customAnswers: { topic: "x" } });
    const plain = await createEventType(host);
    const { row: noQuestion } = await insertBookingRow(host.id, plain.id, new Date("2030-06-02T10:00:00Z"), 30, { customAnswers: {} });
    const sent = provider.received.length;
    for (const id of [noAnswer.id, noQuestion.id]) {
      const res = await outbound("reminder", host, id);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("validation_error");
      expect(res.body.details.issues).toEqual([expect.objectContaining({ path: "bookingId" })]);
    }
    expect((await outbound("reminder", host, "")).status).toBe(400);
    expect(provider.received).toHaveLength(sent);
    expect((await api.get("/me/calls", { token: host.token })).body.pagination.total).toBe(0);
  });

  it("409 booking_not_modifiable: a reminder for a cancelled or started booking, a follow-up for one still to come", async () => {
    withProvider();
    const host = await createHost();
    const { et, booking: upcoming } = await bookingWithPhone(host, "2030-07-01T10:00:00Z");
    const phone = { customAnswers: { phone: "+14155550123" } };
    const { row: cancelled } = await insertBookingRow(host.id, et.id, new Date("2030-07-02T10:00:00Z"), 30, { ...phone, status: "cancelled" });
    const { row: started } = await insertBookingRow(host.id, et.id, new Date(Date.now() - 10 * 60_000), 30, phone); // running now
    const sent = provider.received.length;
    for (const [agent, booking] of [
      ["reminder", cancelled],
      ["reminder", started],
      ["followup", upcoming],
      ["followup", started], // started, but not over yet: not a no-show
    ] as const) {
      const res = await outbound(agent, host, booking.id);
      expect(res.status, `${agent} ${booking.id}`).toBe(409);
      expect(res.body.error).toBe("booking_not_modifiable");
    }
    expect(provider.received).toHaveLength(sent);
  });

  it("404 for another host's booking and for an unknown one; the other host's calls stay theirs", async () => {
    withProvider();
    const host = await createHost();
    const other = await createHost();
    const { booking } = await bookingWithPhone(host, "2030-08-01T10:00:00Z");
    expect((await outbound("reminder", other, booking.id)).status).toBe(404);
    expect((await outbound("reminder", host, "bkg_unknown")).status).toBe(404);
    expect((await outbound("reminder", host, booking.id)).status).toBe(201);
    expect((await api.get("/me/calls", { token: other.token })).body).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0 } });
  });
});

describe("GET /me/calls", () => {
  it("pages newest first, filters by booking, and answers 401 without a token and 400 for a bad limit", async () => {
    withProvider();
    const host = await createHost();
    const { booking: first } = await bookingWithPhone(host, "2030-09-01T10:00:00Z");
    const { booking: second } = await bookingWithPhone(host, "2030-09-02T10:00:00Z");
    const a = (await outbound("reminder", host, first.id)).body;
    const b = (await outbound("reminder", host, second.id)).body;
    const c = (await outbound("reminder", host, first.id)).body;
    const all = await api.get("/me/calls", { token: host.token });
    expect(all.body.data.map((x: { id: string }) => x.id)).toEqual([c.id, b.id, a.id]);
    const page2 = await api.get("/me/calls?limit=2&page=2", { token: host.token });
    expect(page2.body).toEqual({ data: [a], pagination: { page: 2, limit: 2, total: 3 } });
    expect((await api.get(`/me/calls?bookingId=${first.id}`, { token: host.token })).body.data.map((x: { id: string }) => x.id)).toEqual([c.id, a.id]);
    expect((await api.get("/me/calls")).status).toBe(401);
    expect((await api.get("/me/calls?limit=0", { token: host.token })).status).toBe(400);
  });
});

describe("OpenAPI", () => {
  it("documents the service's routes with their full paths, the signature header and the form body", async () => {
    const doc = (await api.get("/openapi.json")).body;
    for (const p of ["/api/calls", "/health", "/api/calls/reminder/outbound", "/api/calls/followup/outbound", "/api/calls/webhook", "/api/v1/me/calls", "/api/v1/health"]) {
      expect(Object.keys(doc.paths), p).toContain(p);
    }
    const reminder = doc.paths["/api/calls/reminder/outbound"].post;
    expect(reminder.security).toEqual([{ bearer: [] }, { session: [] }]);
    expect(Object.keys(reminder.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "404", "409", "503"]));
    expect(reminder.requestBody.content["application/json"].schema.required).toEqual(["bookingId"]);
    const webhook = doc.paths["/api/calls/webhook"].post;
    expect(webhook.security).toEqual([]);
    expect(webhook.parameters).toEqual([expect.objectContaining({ name: "X-Twilio-Signature", in: "header", required: true })]);
    expect(webhook.requestBody.content["application/x-www-form-urlencoded"].schema.required).toEqual(["CallSid", "CallStatus"]);
    expect(Object.keys(webhook.responses)).toEqual(expect.arrayContaining(["204", "403", "404", "503"]));
    const ids = Object.values<Record<string, { operationId: string }>>(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
