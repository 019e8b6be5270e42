import { createHmac, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { startFakeTelephony } from "../tests/support/fake-telephony";
import { setUpHost } from "./support/host";
import { start } from "./support/server";

// The two auxiliary contracts over real HTTP against `npm start`: the social page contract, and
// the outbound-calling service, first on the shared server (no telephony credentials: 503), then
// on a server of its own whose provider is a local fake speaking Twilio's REST format.

const api = (p: string) => `/api/v1${p}`;

async function eventTypeId(request: APIRequestContext, headers: Record<string, string>, slug: string): Promise<string> {
  const list = await (await request.get(api("/me/event-types"), { headers })).json();
  return list.data.find((e: { slug: string }) => e.slug === slug).id;
}

test("the social page contract: descriptor, validation, and a post announcing an event type", async ({ request, baseURL }) => {
  const descriptor = await request.get(api("/contracts/social-page"));
  expect(descriptor.status()).toBe(200);
  expect(await descriptor.json()).toMatchObject({ version: 1, channel: "facebook", destination: "page", mediaType: "schema", authorField: "page_id" });

  const valid = await request.post(api("/contracts/social-page/validate"), { data: { mediaType: "content", record: { id: "p1", text: " Hi ", status: "draft" } } });
  expect(valid.status()).toBe(200);
  expect(await valid.json()).toEqual({ mediaType: "content", record: { id: "p1", text: "Hi", status: "draft" } });
  const invalid = await request.post(api("/contracts/social-page/validate"), {
    data: { mediaType: "image", record: { id: "i1", caption: "", status: "draft", image: { url: "nope", alt: "x", mimeType: "image/png" } } },
  });
  expect(invalid.status()).toBe(400);
  expect((await invalid.json()).details.issues).toEqual([expect.objectContaining({ path: "record.image.url" })]);

  const { username, headers } = await setUpHost(request);
  const post = await request.get(api(`/me/event-types/${await eventTypeId(request, headers, "consult")}/social-post`), { headers });
  expect(post.status()).toBe(200);
  const record = await post.json();
  expect(record.link).toBe(`${baseURL}/${username}/consult`);
  expect(record.text).toContain(`Book a time: ${baseURL}/${username}/consult`);
  expect(record.cta).toEqual({ type: "BOOK_NOW", link: record.link });
  expect((await request.post(api("/contracts/social-page/validate"), { data: { mediaType: "content", record } })).status()).toBe(200);
});

test("the outbound-calling service without credentials: descriptor, /health, 401 then 503 before the body", async ({ request, baseURL }) => {
  const root = await request.get("/api/calls");
  expect(root.status()).toBe(200);
  expect(await root.json()).toEqual({
    success: true,
    service: "Booking outbound calls",
    domain: baseURL,
    port: Number(new URL(baseURL!).port),
    agents: ["reminder", "followup"],
    endpoints: { health: "GET /health", reminder: "POST /api/calls/reminder/outbound", followup: "POST /api/calls/followup/outbound", webhook: "POST /api/calls/webhook" },
  });
  const health = await request.get("/health");
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: "ok" });

  expect((await request.post("/api/calls/reminder/outbound", { data: { bookingId: "bkg_x" } })).status()).toBe(401);
  const { headers } = await setUpHost(request);
  for (const agent of ["reminder", "followup"]) {
    const res = await request.post(`/api/calls/${agent}/outbound`, { headers: { ...headers, "content-type": "application/json" }, data: "{not json" });
    expect(res.status()).toBe(503);
    expect((await res.json()).error).toBe("provider_unavailable");
  }
  const doc = await (await request.get(api("/openapi.json"))).json();
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/calls", "/health", "/api/calls/reminder/outbound", "/api/calls/followup/outbound", "/api/calls/webhook", "/api/v1/contracts/social-page"]));
});

test("both agents call a guest through a Twilio-compatible provider, and a signed status callback updates the call", async ({ playwright }) => {
  const provider = await startFakeTelephony();
  const server = await start({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-calls-")),
    CALLS_API_BASE_URL: provider.url,
    CALLS_ACCOUNT_SID: provider.accountSid,
    CALLS_AUTH_TOKEN: provider.authToken,
    CALLS_FROM_NUMBER: "+14155550100",
  });
  const request = await playwright.request.newContext({ baseURL: server.url });
  try {
    const { username, headers, date } = await setUpHost(request);
    const et = await request.post(api("/me/event-types"), {
      headers,
      data: { slug: "call-me", title: "Phone consult", durationMinutes: 30, customQuestions: [{ id: "phone", label: "Phone", type: "phone", required: true }] },
    });
    expect(et.status()).toBe(201);
    const { slots } = await (await request.get(api(`/public/${username}/call-me/slots?from=${date}&to=${date}&timezone=Europe/Paris`))).json();
    const booked = await request.post(api(`/public/${username}/call-me/bookings`), {
      headers: { "idempotency-key": randomUUID() },
      data: { startTime: slots[0].startTime, guestName: "Paul", guestEmail: `paul-${randomUUID()}@example.com`, guestTimezone: "Europe/Paris", customAnswers: { phone: "+33 6 12 34 56 78" } },
    });
    expect(booked.status()).toBe(201);
    const bookingId = (await booked.json()).id;

    const reminder = await request.post("/api/calls/reminder/outbound", { headers, data: { bookingId } });
    expect(reminder.status()).toBe(201);
    const call = await reminder.json();
    expect(call).toMatchObject({ agent: "reminder", to: "+33612345678", status: "queued", providerCallSid: expect.stringMatching(/^CA/) });
    const sent = provider.received.at(-1)!;
    expect(sent.form.get("To")).toBe("+33612345678");
    expect(sent.form.get("Twiml")).toContain("Your Phone consult with Flow Host is on");
    expect(sent.form.get("Twiml")).toContain("Central European");
    expect(sent.form.get("StatusCallback")).toBe(`${server.url.replace("127.0.0.1", "localhost")}/api/calls/webhook`);

    // The provider reports the end of the call, signed for the public URL it was given.
    const fields = { CallSid: call.providerCallSid, CallStatus: "completed", AccountSid: provider.accountSid, CallDuration: "21" };
    const signedUrl = sent.form.get("StatusCallback")!;
    const signature = createHmac("sha1", provider.authToken)
      .update(signedUrl + Object.keys(fields).sort().map((k) => k + fields[k as keyof typeof fields]).join(""))
      .digest("base64");
    const form = new URLSearchParams(fields).toString();
    const forged = await request.post("/api/calls/webhook", { headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": "AAAA" }, data: form });
    expect(forged.status()).toBe(403);
    const callback = await request.post("/api/calls/webhook", { headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature }, data: form });
    expect(callback.status()).toBe(204);

    // The guest cancels; the follow-up agent offers a new time and names the booking page.
    expect((await request.post(api(`/me/bookings/${bookingId}/cancel`), { headers, data: {} })).status()).toBe(200);
    expect((await request.post("/api/calls/reminder/outbound", { headers, data: { bookingId } })).status()).toBe(409);
    const followup = await request.post("/api/calls/followup/outbound", { headers, data: { bookingId } });
    expect(followup.status()).toBe(201);
    expect(provider.received.at(-1)!.form.get("Twiml")).toContain(`booking page at localhost:${new URL(server.url).port}/${username}/call-me`);

    const calls = await (await request.get(api("/me/calls"), { headers })).json();
    expect(calls.data.map((c: { agent: string; status: string }) => [c.agent, c.status])).toEqual([
      ["followup", "queued"],
      ["reminder", "completed"],
    ]);
  } finally {
    await request.dispose();
    await server.stop();
    await provider.close();
  }
});
