import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeStripe, unflatten, type FakeStripe } from "@/tests/support/fake-stripe";
import { checkAccount, createCheckoutSession, createRefund, expireCheckoutSession, verifiedEvent } from "./stripe";

// The fake Stripe (tests/support/fake-stripe.ts) against the real `stripe` library: if the
// library can talk to it, so can the app. Made the way lib/payments/stripe.ts makes its client.
// In the "unit" project (no database): nothing here needs one.

type Hook = { raw: string; signature: string; userAgent: string | undefined; contentType: string | undefined; event?: Stripe.Event; error?: string };

let fake: FakeStripe;
let stripe: Stripe;
let hooks: Hook[];
let receiver: Server;
let receiverUrl: string;

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

beforeAll(async () => {
  // The app's webhook endpoint: verifies as the app does, and is where success_url lands.
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.url?.startsWith("/paid")) return res.writeHead(200, { "content-type": "text/plain" }).end(`paid ${req.url}`);
      const raw = Buffer.concat(chunks).toString("utf8");
      const hook: Hook = { raw, signature: String(req.headers["stripe-signature"]), userAgent: req.headers["user-agent"], contentType: req.headers["content-type"] };
      try {
        hook.event = stripe.webhooks.constructEvent(raw, hook.signature, fake.webhookSecret);
      } catch (error) {
        hook.error = (error as Error).message;
      }
      hooks.push(hook);
      res.writeHead(hook.event ? 200 : 400, { "content-type": "application/json" }).end(JSON.stringify({ received: !!hook.event }));
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

beforeAll(async () => {
  fake = await startFakeStripe();
  fake.setWebhookUrl(`${receiverUrl}/webhooks/stripe`);
  const url = new URL(fake.url);
  stripe = new Stripe(fake.secretKey, { host: url.hostname, port: Number(url.port), protocol: "http", maxNetworkRetries: 0, timeout: 10_000, telemetry: false });
});
afterAll(() => fake.close());
afterEach(() => {
  hooks = [];
});
hooks = [];

function sessionParams(overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}): Stripe.Checkout.SessionCreateParams {
  return {
    mode: "payment",
    line_items: [{ quantity: 2, price_data: { currency: "eur", unit_amount: 2500, product_data: { name: "Coaching with Ada Lovelace" } } }],
    customer_email: "guest@example.com",
    client_reference_id: "pay_1",
    metadata: { paymentId: "pay_1", bookingId: "bk_1" },
    payment_intent_data: { metadata: { paymentId: "pay_1", bookingId: "bk_1" } },
    locale: "de",
    success_url: `${receiverUrl}/paid?session={CHECKOUT_SESSION_ID}`,
    cancel_url: `${receiverUrl}/cancelled`,
    expires_at: inAnHour(),
    ...overrides,
  };
}

describe("the form decoder", () => {
  it("reads bracketed keys back to nested objects, numeric segments as arrays", () => {
    const form = new URLSearchParams("line_items[0][price_data][currency]=eur&line_items[0][quantity]=2&line_items[1][quantity]=1&metadata[bookingId]=bk&mode=payment");
    expect(unflatten(form)).toEqual({ line_items: [{ price_data: { currency: "eur" }, quantity: "2" }, { quantity: "1" }], metadata: { bookingId: "bk" }, mode: "payment" });
  });
});

describe("Checkout Sessions through the stripe library", () => {
  it("makes an open session and saw the nested parameters the app sent", async () => {
    const session = await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: "checkout-a" });
    expect(session).toMatchObject({
      object: "checkout.session",
      status: "open",
      payment_status: "unpaid",
      amount_total: 5000,
      currency: "eur",
      customer_email: "guest@example.com",
      client_reference_id: "pay_1",
      metadata: { paymentId: "pay_1", bookingId: "bk_1" },
      payment_intent: null,
      livemode: false,
      locale: "de",
      url: `${fake.url}/c/pay/${session.id}`,
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.success_url).toContain("{CHECKOUT_SESSION_ID}");
    const request = fake.received.at(-1)!;
    expect(request).toMatchObject({ method: "POST", path: "/v1/checkout/sessions", idempotencyKey: "checkout-a", authorization: `Bearer ${fake.secretKey}` });
    expect(request.params).toMatchObject({
      locale: "de",
      customer_email: "guest@example.com",
      metadata: { bookingId: "bk_1" },
      payment_intent_data: { metadata: { paymentId: "pay_1" } },
      line_items: [{ quantity: "2", price_data: { currency: "eur", unit_amount: "2500", product_data: { name: "Coaching with Ada Lovelace" } } }],
    });
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ id: session.id, status: "open" });
  });

  it("replays the first answer for the same Idempotency-Key and refuses the key with other parameters", async () => {
    const before = fake.sessions.length;
    const first = await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: "checkout-b" });
    const again = await stripe.checkout.sessions.create(sessionParams({ expires_at: first.expires_at }), { idempotencyKey: "checkout-b" });
    expect(again.id).toBe(first.id);
    expect(fake.sessions.length).toBe(before + 1);
    const other = stripe.checkout.sessions.create(sessionParams({ expires_at: first.expires_at, customer_email: "other@example.com" }), { idempotencyKey: "checkout-b" });
    await expect(other).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    await expect(other).rejects.toMatchObject({ type: "StripeIdempotencyError", statusCode: 400 });
  });

  it("keeps Stripe's window for expires_at: 30 minutes to 24 hours", async () => {
    const now = Math.floor(Date.now() / 1000);
    const soon = stripe.checkout.sessions.create(sessionParams({ expires_at: now + 29 * 60 }));
    await expect(soon).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    await expect(soon).rejects.toMatchObject({ statusCode: 400, param: "expires_at", message: expect.stringContaining("must be at least 30 minutes from Checkout Session creation") });
    await expect(stripe.checkout.sessions.create(sessionParams({ expires_at: now + 25 * 3600 }))).rejects.toMatchObject({ param: "expires_at", message: expect.stringContaining("less than 24 hours") });
    await expect(stripe.checkout.sessions.create(sessionParams({ expires_at: now + 31 * 60 }))).resolves.toMatchObject({ status: "open" });
  });

  it("refuses what Stripe refuses: no success_url, a currency not in lowercase ISO, another key, an unknown session", async () => {
    await expect(stripe.checkout.sessions.create(sessionParams({ success_url: undefined }))).rejects.toMatchObject({ statusCode: 400, code: "parameter_missing", param: "success_url" });
    const eur = sessionParams({ line_items: [{ quantity: 1, price_data: { currency: "EURO", unit_amount: 100, product_data: { name: "x" } } }] });
    await expect(stripe.checkout.sessions.create(eur)).rejects.toMatchObject({ statusCode: 400, param: "line_items[0][price_data][currency]" });
    const url = new URL(fake.url);
    const stranger = new Stripe("sk_test_someoneelse1234", { host: url.hostname, port: Number(url.port), protocol: "http", maxNetworkRetries: 0 });
    const refused = stranger.checkout.sessions.create(sessionParams());
    await expect(refused).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    await expect(refused).rejects.toMatchObject({ message: expect.stringMatching(/^Invalid API Key provided: sk_test_\**1234$/) });
    await expect(stripe.checkout.sessions.retrieve("cs_test_nope")).rejects.toMatchObject({ statusCode: 404, code: "resource_missing" });
  });

  it("expires an open session once, sends checkout.session.expired, and answers Stripe's error after", async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ id: session.id, status: "expired", url: null });
    await fake.settled();
    expect(hooks.map((h) => h.event?.type)).toEqual(["checkout.session.expired"]);
    expect(hooks[0]!.event!.data.object).toMatchObject({ id: session.id, status: "expired" });
    await expect(stripe.checkout.sessions.expire(session.id)).rejects.toMatchObject({ statusCode: 400, message: 'Only Checkout Sessions with a status in ["open"] can be expired' });
    // The hosted page says so, and paying there takes nothing.
    const pageHtml = await (await fetch(`${fake.url}/c/pay/${session.id}`)).text();
    expect(pageHtml).toContain("expired");
    const pay = await fetch(`${fake.url}/c/pay/${session.id}`, { method: "POST", redirect: "manual" });
    expect(pay.status).toBe(400);
    expect(await pay.text()).toContain("expired");
    expect(fake.session(session.id)!.payment_intent).toBeNull();
  });
});

describe("the hosted page and the signed event", () => {
  it("shows the line, the amount in the guest's language and the email; paying sends a verifiable event, then redirects", async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const page = await fetch(session.url!);
    const html = await page.text();
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(html).toContain("Coaching with Ada Lovelace");
    expect(html).toContain("50,00\u00a0€"); // 5000 cents in German
    expect(html).toMatch(/<title>Pay 50,00\s€ – Test checkout<\/title>/);
    expect(html).toContain("guest@example.com");
    expect(html).toContain(`href="${receiverUrl}/cancelled"`);
    expect(html).toContain(`action="/c/pay/${session.id}"`);

    const pay = await fetch(`${fake.url}/c/pay/${session.id}`, { method: "POST", body: new URLSearchParams(), redirect: "manual" });
    expect(pay.status).toBe(303);
    const location = pay.headers.get("location")!;
    expect(location).toBe(`${receiverUrl}/paid?session=${session.id}`);
    // The event was answered before the redirect.
    expect(hooks).toHaveLength(1);
    const landed = await fetch(location);
    expect(await landed.text()).toContain(session.id);

    const hook = hooks[0]!;
    expect(hook.error).toBeUndefined();
    expect(hook.userAgent).toBe("Stripe/1.0 (+https://stripe.com/docs/webhooks)");
    expect(hook.contentType).toContain("application/json");
    expect(hook.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(hook.event).toMatchObject({ object: "event", type: "checkout.session.completed", livemode: false, pending_webhooks: 1, api_version: Stripe.API_VERSION });
    expect(hook.event!.id).toMatch(/^evt_/);
    const paid = hook.event!.data.object as Stripe.Checkout.Session;
    expect(paid).toMatchObject({ id: session.id, status: "complete", payment_status: "paid", client_reference_id: "pay_1", customer_details: { email: "guest@example.com" } });
    expect(paid.payment_intent).toMatch(/^pi_/);
    expect(fake.paymentIntent(paid.payment_intent as string)).toMatchObject({ amount: 5000, currency: "eur", metadata: { bookingId: "bk_1" } });
    expect(fake.deliveries.at(-1)).toMatchObject({ eventId: hook.event!.id, status: 200 });
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ status: "complete", payment_intent: paid.payment_intent });
  });

  it("resends any event: a duplicate verifies, a stale timestamp or a forged secret does not", async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const event = await fake.complete(session.id, { send: false });
    expect(hooks).toHaveLength(0);
    expect(fake.events.at(-1)).toBe(event);

    expect(await fake.send(event)).toMatchObject({ status: 200 });
    expect(await fake.send(event)).toMatchObject({ status: 200 });
    expect(hooks.map((h) => h.event?.id)).toEqual([event.id, event.id]);

    const stale = await fake.send(event, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.status).toBe(400);
    expect(hooks.at(-1)!.error).toMatch(/Timestamp outside the tolerance zone/);
    expect((await fake.send(event, { secret: "whsec_forged" })).status).toBe(400);
    expect(hooks.at(-1)!.error).toMatch(/No signatures found matching the expected signature/);
    expect((await fake.send(event, { header: "garbage" })).status).toBe(400);

    // Out of order: an expiry made by hand after the completion, sent before it.
    const late = fake.makeEvent("checkout.session.expired", { ...fake.session(session.id)!, status: "expired" });
    expect(fake.events).not.toContain(late);
    expect((await fake.send(late)).status).toBe(200);
  });

  it("works through the app's own client (lib/payments/stripe.ts)", async () => {
    const config = { secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, apiUrl: fake.url, holdMinutes: 30 };
    const made = await createCheckoutSession(config, {
      paymentId: "pay_app",
      bookingId: "bk_app",
      name: "Intro call",
      unitAmount: 4200,
      quantity: 1,
      currency: "usd",
      email: "ana@example.com",
      locale: "es",
      successUrl: `${receiverUrl}/paid?s={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${receiverUrl}/cancelled`,
      expiresAt: Date.now() + 31 * 60_000,
    });
    expect(fake.received.at(-1)).toMatchObject({ idempotencyKey: "checkout-pay_app", params: { client_reference_id: "pay_app", locale: "es" } });
    const event = await fake.complete(made.id);
    expect(verifiedEvent(config, hooks[0]!.raw, hooks[0]!.signature)?.id).toBe(event.id);
    expect(verifiedEvent(config, hooks[0]!.raw, "t=1,v1=00")).toBeUndefined();
    // Paid first: expiring answers what the session is.
    expect(await expireCheckoutSession(config, made.id)).toBe("complete");
    const pi = fake.session(made.id)!.payment_intent!;
    expect(await createRefund(config, { refundId: "rf_app", paymentIntentId: pi, amount: 4200, bookingId: "bk_app" })).toMatchObject({ status: "succeeded" });
    expect(await createRefund(config, { refundId: "rf_app", paymentIntentId: pi, amount: 4200, bookingId: "bk_app" })).toMatchObject({ status: "succeeded" });
    expect(fake.refundCount(pi)).toBe(1);

    expect(await checkAccount(config, `${receiverUrl}/webhooks/stripe`)).toEqual({ endpoint: "missing" });
    fake.addWebhookEndpoint(`${receiverUrl}/webhooks/stripe`);
    expect(await checkAccount(config, `${receiverUrl}/webhooks/stripe`)).toEqual({ endpoint: "listening" });
    fake.denyWebhookEndpoints();
    expect(await checkAccount(config, `${receiverUrl}/webhooks/stripe`)).toEqual({ endpoint: "unknown" });
    fake.denyWebhookEndpoints(false);
  });
});

describe("refunds", () => {
  async function paidIntent(): Promise<string> {
    const session = await stripe.checkout.sessions.create(sessionParams());
    await fake.complete(session.id, { send: false });
    return fake.session(session.id)!.payment_intent!;
  }

  it("refunds once per Idempotency-Key, up to what is left, with Stripe's errors beyond", async () => {
    const pi = await paidIntent();
    const first = await stripe.refunds.create({ payment_intent: pi, amount: 2000, reason: "requested_by_customer", metadata: { refundId: "r1" } }, { idempotencyKey: "refund-r1" });
    expect(first).toMatchObject({ object: "refund", amount: 2000, currency: "eur", payment_intent: pi, status: "succeeded", metadata: { refundId: "r1" } });
    expect(first.id).toMatch(/^re_/);
    const replay = await stripe.refunds.create({ payment_intent: pi, amount: 2000, reason: "requested_by_customer", metadata: { refundId: "r1" } }, { idempotencyKey: "refund-r1" });
    expect(replay.id).toBe(first.id);
    expect(fake.refundCount(pi)).toBe(1);

    const tooMuch = stripe.refunds.create({ payment_intent: pi, amount: 3001 });
    await expect(tooMuch).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    await expect(tooMuch).rejects.toMatchObject({ code: "amount_too_large", message: "Refund amount (€30.01) is greater than unrefunded amount on charge (€30.00)" });
    // No amount: the rest.
    expect(await stripe.refunds.create({ payment_intent: pi })).toMatchObject({ amount: 3000 });
    await expect(stripe.refunds.create({ payment_intent: pi, amount: 1 })).rejects.toMatchObject({ code: "charge_already_refunded" });
    expect(fake.refundCount(pi)).toBe(2);
    await expect(stripe.refunds.create({ payment_intent: "pi_unknown" })).rejects.toMatchObject({ code: "resource_missing", param: "payment_intent" });
  });

  it("fails the next refunds with an api_error before making anything: the retry under the same key makes exactly one", async () => {
    const pi = await paidIntent();
    fake.failRefunds(1);
    const failed = stripe.refunds.create({ payment_intent: pi, amount: 500 }, { idempotencyKey: "refund-r2" });
    await expect(failed).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
    await expect(failed).rejects.toMatchObject({ statusCode: 500, type: "StripeAPIError" });
    expect(fake.refundCount(pi)).toBe(0);
    const retried = await stripe.refunds.create({ payment_intent: pi, amount: 500 }, { idempotencyKey: "refund-r2" });
    const again = await stripe.refunds.create({ payment_intent: pi, amount: 500 }, { idempotencyKey: "refund-r2" });
    expect(again.id).toBe(retried.id);
    expect(fake.refundCount(pi)).toBe(1);
    expect(fake.refunds.filter((r) => r.payment_intent === pi)).toHaveLength(1);
  });

  it("answers the doctor's balance and webhook endpoint questions", async () => {
    expect(await stripe.balance.retrieve()).toMatchObject({ object: "balance", livemode: false });
    const list = await stripe.webhookEndpoints.list({ limit: 100 });
    expect(list).toMatchObject({ object: "list", has_more: false, url: "/v1/webhook_endpoints" });
  });
});
