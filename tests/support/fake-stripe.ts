import { createHmac, randomInt } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * A local stand-in for the part of Stripe's API the app uses, on its wire format, so that the
 * official `stripe` library talks to it unchanged (lib/payments/stripe.ts points it here through
 * STRIPE_API_URL): form-encoded bodies with bracketed keys, `Authorization: Bearer sk_…`,
 * Idempotency-Key replays, JSON objects shaped like Stripe's and its `{ error: { type, message,
 * code?, param? } }` answers with its statuses.
 *
 * - `POST /v1/checkout/sessions`, `GET /v1/checkout/sessions/:id`, `POST …/:id/expire`
 * - `POST /v1/refunds`, `GET /v1/payment_intents/:id`
 * - `GET /v1/balance`, `GET /v1/webhook_endpoints` (the doctor's key and endpoint checks)
 * - `GET|POST /c/pay/:id`: the hosted Checkout page a guest is sent to; paying there sends the
 *   signed `checkout.session.completed` to the app's webhook before redirecting to success_url,
 *   as a guest's browser arrives after Stripe has (usually) told the app.
 *
 * Tests also drive it directly: complete or expire a session without the page, (re)send any event
 * with a chosen timestamp, secret or signature, make refunds fail, and read what the app asked.
 */

export type FakeSession = {
  id: string;
  object: "checkout.session";
  mode: "payment";
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid";
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  customer_email: string | null;
  customer_details: { email: string | null; name: string | null; phone: string | null; address: null; tax_exempt: "none"; tax_ids: [] } | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string | null;
  /** The hosted page while the session is open; Stripe's is null once it is complete or expired. */
  url: string | null;
  expires_at: number;
  payment_intent: string | null;
  livemode: false;
  created: number;
  locale: string | null;
};

export type FakeLineItem = { name: string; currency: string; unitAmount: number; quantity: number };

export type FakePaymentIntent = {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  currency: string;
  status: "succeeded";
  latest_charge: string;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
};

export type FakeRefund = {
  id: string;
  object: "refund";
  amount: number;
  charge: string;
  currency: string;
  payment_intent: string;
  reason: string | null;
  status: "succeeded";
  metadata: Record<string, string>;
  created: number;
};

export type FakeEvent = {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  type: string;
  data: { object: unknown };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
};

export type FakeWebhookEndpoint = {
  id: string;
  object: "webhook_endpoint";
  api_version: string | null;
  application: null;
  created: number;
  description: string | null;
  enabled_events: string[];
  livemode: false;
  metadata: Record<string, string>;
  status: "enabled" | "disabled";
  url: string;
};

export type ReceivedRequest = {
  method: string;
  path: string;
  /** The form body (or the query of a GET) parsed back to nested objects and arrays. */
  params: Record<string, unknown>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  stripeVersion: string | undefined;
};

export type Delivery = { eventId: string; type: string; status: number; body: string; signature: string };

export type SendOptions = {
  /** Unix seconds for `t=`; one more than 300 s old is refused by constructEvent (a replay). */
  timestamp?: number;
  /** Sign with this instead of the endpoint's secret (a forged event). */
  secret?: string;
  /** This hex in place of the computed v1 signature (as the library's generateTestHeaderString). */
  signature?: string;
  /** The whole Stripe-Signature header, verbatim. */
  header?: string;
};

export type FakeStripe = {
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Every API request (`/v1/…`), in order, authorised or not. */
  received: ReceivedRequest[];
  sessions: FakeSession[];
  session(id: string): FakeSession | undefined;
  lineItems(sessionId: string): FakeLineItem[];
  paymentIntent(id: string): FakePaymentIntent | undefined;
  refunds: FakeRefund[];
  refundCount(paymentIntentId: string): number;
  /** Every event this Stripe made (completions, expiries, refunds), in order; not makeEvent's. */
  events: FakeEvent[];
  /** Every webhook request sent and what the endpoint answered (status 0: no answer). */
  deliveries: Delivery[];
  setWebhookUrl(url: string): void;
  addWebhookEndpoint(url: string, enabledEvents?: string[], status?: "enabled" | "disabled"): FakeWebhookEndpoint;
  /** Answers `GET /v1/webhook_endpoints` with 403, as for a restricted key without the permission. */
  denyWebhookEndpoints(deny?: boolean): void;
  /** The next n `POST /v1/refunds` answer `status` with an api_error before anything is made. */
  failRefunds(n: number, status?: number): void;
  /** Pays an open session as the hosted page would; sends `checkout.session.completed` unless `send: false`. */
  complete(sessionId: string, options?: { send?: boolean }): Promise<FakeEvent>;
  /** Expires an open session as Stripe does at expires_at; sends `checkout.session.expired` unless `send: false`. */
  expire(sessionId: string, options?: { send?: boolean }): Promise<FakeEvent>;
  makeEvent(type: string, object: unknown): FakeEvent;
  /** Sends an event to the webhook URL, signed, and answers what the endpoint said. */
  send(event: FakeEvent, options?: SendOptions): Promise<{ status: number; body: string }>;
  /** Waits for the webhooks sent in the background (after an API expire) to be answered. */
  settled(): Promise<void>;
  close(): Promise<void>;
};

// Stripe's Checkout speaks these (its `locale` parameter's values).
const LOCALES = new Set(
  "auto bg cs da de el en en-GB es es-419 et fi fil fr fr-CA hr hu id it ja ko lt lv ms mt nb nl pl pt pt-BR ro ru sk sl sv th tr vi zh zh-HK zh-TW".split(" "),
);
const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function randomId(prefix: string, length = 24): string {
  let out = prefix;
  for (let i = 0; i < length; i++) out += ALPHANUMERIC.charAt(randomInt(ALPHANUMERIC.length));
  return out;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A Stripe error answer: thrown inside a handler, written by the server. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: "invalid_request_error" | "api_error" | "card_error" | "idempotency_error",
    message: string,
    readonly extra: { code?: string; param?: string } = {},
  ) {
    super(message);
  }
}

const missing = (param: string) => new ApiError(400, "invalid_request_error", `Missing required param: ${param}.`, { code: "parameter_missing", param });

/**
 * `line_items[0][price_data][currency]=eur` and friends back to `{ line_items: [{ price_data: {
 * currency: "eur" } }] }`: the inverse of the library's encoder, numeric segments being array
 * indices. Stripe reads an empty value as "unset"; here it stays an empty string.
 */
export function unflatten(form: URLSearchParams): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of form) {
    const first = key.indexOf("[");
    const segments = first === -1 ? [key] : [key.slice(0, first), ...Array.from(key.slice(first).matchAll(/\[([^\]]*)\]/g), (m) => m[1] ?? "")];
    let node: Record<string, unknown> | unknown[] = root;
    segments.forEach((segment, i) => {
      const last = i === segments.length - 1;
      const slot = segment === "" && Array.isArray(node) ? String(node.length) : segment;
      const holder = node as Record<string, unknown>;
      if (last) {
        holder[slot] = value;
        return;
      }
      if (typeof holder[slot] !== "object" || holder[slot] === null) holder[slot] = /^\d*$/.test(segments[i + 1] ?? "") ? [] : {};
      node = holder[slot] as Record<string, unknown> | unknown[];
    });
  }
  return root;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function integerParam(value: unknown, param: string, { min }: { min: number }): number {
  if (typeof value !== "string" || !/^-?\d+$/.test(value)) throw new ApiError(400, "invalid_request_error", `Invalid integer: ${String(value)}`, { code: "parameter_invalid_integer", param });
  const n = Number(value);
  if (n < min) throw new ApiError(400, "invalid_request_error", `This value must be greater than or equal to ${min}.`, { code: "parameter_invalid_integer", param });
  return n;
}

function metadataParam(value: unknown, param: string): Record<string, string> {
  if (value === undefined || value === "") return {};
  if (!isRecord(value)) throw new ApiError(400, "invalid_request_error", `Invalid object`, { param });
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    // Stripe's limits: 50 keys, keys up to 40 characters, values up to 500.
    if (k.length > 40) throw new ApiError(400, "invalid_request_error", `Metadata keys can have a maximum length of 40 characters.`, { param: `${param}[${k}]` });
    if (typeof v !== "string") throw new ApiError(400, "invalid_request_error", `Invalid string: ${JSON.stringify(v)}`, { param: `${param}[${k}]` });
    if (v.length > 500) throw new ApiError(400, "invalid_request_error", `Metadata values can have a maximum length of 500 characters.`, { param: `${param}[${k}]` });
    if (v !== "") out[k] = v;
  }
  if (Object.keys(out).length > 50) throw new ApiError(400, "invalid_request_error", `You can only specify up to 50 metadata keys.`, { param });
  return out;
}

/** An amount in minor units as people read it: 2500 eur in "de" → "25,00 €"; 500 jpy → "￥500". */
export function formatAmount(amount: number, currency: string, locale: string | null): string {
  const lang = !locale || locale === "auto" ? "en" : locale;
  const format = new Intl.NumberFormat(lang, { style: "currency", currency: currency.toUpperCase() });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeStripe(options: { webhookUrl?: string; webhookSecret?: string } = {}): Promise<FakeStripe> {
  const secretKey = randomId("sk_test_", 32);
  const webhookSecret = options.webhookSecret ?? randomId("whsec_", 32);
  let webhookUrl = options.webhookUrl;
  let baseUrl = "";

  const received: ReceivedRequest[] = [];
  const sessions = new Map<string, FakeSession>();
  const lineItems = new Map<string, FakeLineItem[]>();
  // What the session's payment_intent_data asked to put on the payment it makes.
  const intentMetadata = new Map<string, Record<string, string>>();
  const paymentIntents = new Map<string, FakePaymentIntent>();
  const refunds: FakeRefund[] = [];
  const events: FakeEvent[] = [];
  const deliveries: Delivery[] = [];
  const endpoints: FakeWebhookEndpoint[] = [];
  // Stripe keeps an Idempotency-Key's first answer (24 hours) with the request it answered.
  const idempotent = new Map<string, { endpoint: string; body: string; status: number; response: unknown }>();
  const inFlight = new Set<Promise<unknown>>();
  let refundFailures = { left: 0, status: 500 };
  let endpointsDenied = false;
  let apiVersion: string = Stripe.API_VERSION;

  function makeEvent(type: string, object: unknown): FakeEvent {
    return {
      id: randomId("evt_"),
      object: "event",
      api_version: apiVersion,
      created: nowSeconds(),
      type,
      // A snapshot: the event says what the object was when it happened, as Stripe's do.
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    };
  }

  function record(type: string, object: unknown, request?: { id: string; idempotencyKey: string | undefined }): FakeEvent {
    const event = makeEvent(type, object);
    if (request) event.request = { id: request.id, idempotency_key: request.idempotencyKey ?? null };
    events.push(event);
    return event;
  }

  async function send(event: FakeEvent, opts: SendOptions = {}): Promise<{ status: number; body: string }> {
    if (!webhookUrl) throw new Error("fake Stripe: no webhook URL to send to (startFakeStripe({ webhookUrl }) or setWebhookUrl)");
    // Stripe sends its events pretty-printed; the signature covers these exact bytes.
    const payload = JSON.stringify(event, null, 2);
    const t = opts.timestamp ?? nowSeconds();
    const v1 = opts.signature ?? createHmac("sha256", opts.secret ?? webhookSecret).update(`${t}.${payload}`).digest("hex");
    const signature = opts.header ?? `t=${t},v1=${v1}`;
    let answer: { status: number; body: string };
    try {
      const res = await fetch(webhookUrl, {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8", "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)", "stripe-signature": signature },
        body: payload,
        redirect: "manual",
        signal: AbortSignal.timeout(10_000),
      });
      answer = { status: res.status, body: await res.text() };
    } catch (error) {
      // No answer (refused, timed out): Stripe counts it as a failed delivery, like a 5xx.
      answer = { status: 0, body: String(error) };
    }
    deliveries.push({ eventId: event.id, type: event.type, ...answer, signature });
    return answer;
  }

  /** Sends without making the caller wait, as Stripe does after an API call; settled() waits. */
  function sendLater(event: FakeEvent) {
    if (!webhookUrl) return;
    const p = send(event).finally(() => inFlight.delete(p));
    inFlight.add(p);
  }

  function openSession(id: string, param = "session"): FakeSession {
    const session = sessions.get(id);
    if (!session) throw new ApiError(404, "invalid_request_error", `No such checkout.session: '${id}'`, { code: "resource_missing", param });
    return session;
  }

  function expireSession(session: FakeSession, request?: { id: string; idempotencyKey: string | undefined }): FakeEvent {
    if (session.status !== "open") throw new ApiError(400, "invalid_request_error", `Only Checkout Sessions with a status in ["open"] can be expired`);
    session.status = "expired";
    session.url = null;
    return record("checkout.session.expired", session, request);
  }

  function completeSession(session: FakeSession): FakeEvent {
    if (session.status === "expired") throw new ApiError(400, "invalid_request_error", `This Checkout Session has expired.`);
    if (session.status === "complete") throw new ApiError(400, "invalid_request_error", `This Checkout Session is already complete.`);
    const intent: FakePaymentIntent = {
      id: randomId("pi_"),
      object: "payment_intent",
      amount: session.amount_total,
      amount_received: session.amount_total,
      currency: session.currency,
      status: "succeeded",
      latest_charge: randomId("ch_"),
      metadata: intentMetadata.get(session.id) ?? {},
      created: nowSeconds(),
      livemode: false,
    };
    paymentIntents.set(intent.id, intent);
    session.status = "complete";
    session.payment_status = "paid";
    session.payment_intent = intent.id;
    session.url = null;
    session.customer_details = { email: session.customer_email, name: null, phone: null, address: null, tax_exempt: "none", tax_ids: [] };
    return record("checkout.session.completed", session);
  }

  function createSession(p: Record<string, unknown>): FakeSession {
    if (p.mode === undefined) throw missing("mode");
    if (p.mode !== "payment") throw new ApiError(400, "invalid_request_error", `This fake Stripe makes only mode=payment sessions, not ${String(p.mode)}.`, { param: "mode" });
    if (!p.success_url) throw missing("success_url");
    if (!Array.isArray(p.line_items) || p.line_items.length === 0) throw missing("line_items");
    const items: FakeLineItem[] = p.line_items.map((raw, i) => {
      const at = `line_items[${i}]`;
      if (!isRecord(raw)) throw new ApiError(400, "invalid_request_error", "Invalid object", { param: at });
      const priceData = raw.price_data;
      if (!isRecord(priceData)) throw new ApiError(400, "invalid_request_error", `You must specify either \`price\` or \`price_data\` for each line item.`, { param: at });
      const currency = priceData.currency;
      if (currency === undefined) throw missing(`${at}[price_data][currency]`);
      if (typeof currency !== "string" || !/^[a-z]{3}$/.test(currency)) {
        throw new ApiError(400, "invalid_request_error", `Invalid currency: ${String(currency).toLowerCase()}. Stripe currently supports these currencies: usd, eur, gbp, chf, …`, { param: `${at}[price_data][currency]` });
      }
      if (priceData.unit_amount === undefined) throw missing(`${at}[price_data][unit_amount]`);
      const unitAmount = integerParam(priceData.unit_amount, `${at}[price_data][unit_amount]`, { min: 0 });
      const product = priceData.product_data;
      if (!isRecord(product) || typeof product.name !== "string" || product.name === "") throw missing(`${at}[price_data][product_data][name]`);
      if (raw.quantity === undefined) throw missing(`${at}[quantity]`);
      const quantity = integerParam(raw.quantity, `${at}[quantity]`, { min: 1 });
      return { name: product.name, currency, unitAmount, quantity };
    });
    const currency = items[0]?.currency ?? "";
    if (items.some((item) => item.currency !== currency)) throw new ApiError(400, "invalid_request_error", "All line items must have the same currency.", { param: "line_items" });
    const created = nowSeconds();
    let expiresAt = created + 24 * 3600;
    if (p.expires_at !== undefined) {
      expiresAt = integerParam(p.expires_at, "expires_at", { min: 0 });
      // Stripe's window: at least 30 minutes and at most 24 hours after the session is made.
      if (expiresAt < created + 30 * 60) {
        throw new ApiError(400, "invalid_request_error", "The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.", { param: "expires_at" });
      }
      if (expiresAt > created + 24 * 3600) {
        throw new ApiError(400, "invalid_request_error", "The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.", { param: "expires_at" });
      }
    }
    const locale = p.locale === undefined ? null : String(p.locale);
    if (locale !== null && !LOCALES.has(locale)) {
      throw new ApiError(400, "invalid_request_error", `Invalid locale: must be one of ${[...LOCALES].join(", ")}`, { param: "locale" });
    }
    const email = p.customer_email === undefined ? null : String(p.customer_email);
    if (email !== null && !/^[^\s@]+@[^\s@]+$/.test(email)) throw new ApiError(400, "invalid_request_error", `Invalid email address: ${email}`, { code: "email_invalid", param: "customer_email" });
    const metadata = metadataParam(p.metadata, "metadata");
    const piData = p.payment_intent_data;
    const piMetadata = metadataParam(isRecord(piData) ? piData.metadata : undefined, "payment_intent_data[metadata]");

    const amount = items.reduce((sum, item) => sum + item.unitAmount * item.quantity, 0);
    const id = randomId("cs_test_", 58);
    const session: FakeSession = {
      id,
      object: "checkout.session",
      mode: "payment",
      status: "open",
      payment_status: "unpaid",
      amount_subtotal: amount,
      amount_total: amount,
      currency,
      customer_email: email,
      customer_details: null,
      client_reference_id: p.client_reference_id === undefined ? null : String(p.client_reference_id),
      metadata,
      success_url: String(p.success_url),
      cancel_url: p.cancel_url === undefined ? null : String(p.cancel_url),
      url: `${baseUrl}/c/pay/${id}`,
      expires_at: expiresAt,
      payment_intent: null,
      livemode: false,
      created,
      locale,
    };
    sessions.set(id, session);
    lineItems.set(id, items);
    intentMetadata.set(id, piMetadata);
    return session;
  }

  function refundedOf(paymentIntentId: string): number {
    return refunds.filter((r) => r.payment_intent === paymentIntentId).reduce((sum, r) => sum + r.amount, 0);
  }

  function createRefund(p: Record<string, unknown>, request: { id: string; idempotencyKey: string | undefined }): FakeRefund {
    if (p.payment_intent === undefined) throw missing("payment_intent");
    const intent = paymentIntents.get(String(p.payment_intent));
    if (!intent) throw new ApiError(400, "invalid_request_error", `No such payment_intent: '${String(p.payment_intent)}'`, { code: "resource_missing", param: "payment_intent" });
    const left = intent.amount_received - refundedOf(intent.id);
    if (left === 0) throw new ApiError(400, "invalid_request_error", `Charge ${intent.latest_charge} has already been refunded.`, { code: "charge_already_refunded" });
    const amount = p.amount === undefined ? left : integerParam(p.amount, "amount", { min: 1 });
    if (amount > left) {
      const money = (n: number) => formatAmount(n, intent.currency, "en-US");
      throw new ApiError(400, "invalid_request_error", `Refund amount (${money(amount)}) is greater than unrefunded amount on charge (${money(left)})`, { code: "amount_too_large", param: "amount" });
    }
    const reason = p.reason === undefined ? null : String(p.reason);
    if (reason !== null && !["duplicate", "fraudulent", "requested_by_customer"].includes(reason)) {
      throw new ApiError(400, "invalid_request_error", `Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer`, { param: "reason" });
    }
    const refund: FakeRefund = {
      id: randomId("re_"),
      object: "refund",
      amount,
      charge: intent.latest_charge,
      currency: intent.currency,
      payment_intent: intent.id,
      reason,
      status: "succeeded",
      metadata: metadataParam(p.metadata, "metadata"),
      created: nowSeconds(),
    };
    refunds.push(refund);
    // Made, not sent: the app's endpoint listens to Checkout's events; a test may send it.
    record("refund.created", refund, request);
    return refund;
  }

  function balance() {
    const currency = paymentIntents.values().next().value?.currency ?? "eur";
    const paid = [...paymentIntents.values()].reduce((sum, pi) => sum + pi.amount_received - refundedOf(pi.id), 0);
    return {
      object: "balance",
      available: [{ amount: 0, currency, source_types: { card: 0 } }],
      pending: [{ amount: paid, currency, source_types: { card: paid } }],
      livemode: false,
    };
  }

  /** One API request: authorised, routed, its answer replayed for a known Idempotency-Key. */
  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL) {
    const method = req.method ?? "GET";
    const raw = method === "GET" || method === "DELETE" ? url.search.slice(1) : await readBody(req);
    const params = unflatten(new URLSearchParams(raw));
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const idempotencyKey = method === "POST" ? header("idempotency-key") : undefined;
    const stripeVersion = header("stripe-version");
    if (stripeVersion) apiVersion = stripeVersion;
    received.push({ method, path: url.pathname, params, idempotencyKey, authorization: header("authorization"), stripeVersion });
    const requestId = randomId("req_", 14);
    const headers: Record<string, string> = { "content-type": "application/json", "request-id": requestId, "stripe-version": apiVersion };
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    const answer = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      res.writeHead(status, { ...headers, ...extra });
      res.end(JSON.stringify(body, null, 2));
    };

    try {
      const auth = header("authorization");
      if (!auth) throw new ApiError(401, "invalid_request_error", "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').");
      const key = auth.replace(/^Bearer /, "");
      if (key !== secretKey) throw new ApiError(401, "invalid_request_error", `Invalid API Key provided: ${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`);

      const endpoint = `${method} ${url.pathname}`;
      if (idempotencyKey) {
        const earlier = idempotent.get(idempotencyKey);
        if (earlier) {
          if (earlier.endpoint !== endpoint) {
            throw new ApiError(400, "idempotency_error", `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${earlier.endpoint}' vs '${endpoint}'). Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`);
          }
          if (earlier.body !== raw) {
            throw new ApiError(400, "idempotency_error", `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`);
          }
          return answer(earlier.status, earlier.response, { "idempotent-replayed": "true", "original-request": requestId });
        }
      }

      const request = { id: requestId, idempotencyKey };
      const route = (): unknown => {
        const path = url.pathname;
        if (method === "POST" && path === "/v1/checkout/sessions") return createSession(params);
        // The id in a path: decoded, as Stripe reads it.
        const idIn = (re: RegExp) => {
          const m = re.exec(path);
          return m?.[1] === undefined ? undefined : decodeURIComponent(m[1]);
        };
        const sessionId = idIn(/^\/v1\/checkout\/sessions\/([^/]+)$/);
        if (method === "GET" && sessionId) return openSession(sessionId);
        const expireId = idIn(/^\/v1\/checkout\/sessions\/([^/]+)\/expire$/);
        if (method === "POST" && expireId) {
          const session = openSession(expireId);
          sendLater(expireSession(session, request));
          return session;
        }
        if (method === "POST" && path === "/v1/refunds") {
          if (refundFailures.left > 0) {
            refundFailures.left--;
            // Failing before anything is made, as a front door's 5xx would: nothing is kept
            // under the key, so the retry with it makes the one refund.
            throw new ApiError(refundFailures.status, "api_error", "An unknown error occurred");
          }
          return createRefund(params, request);
        }
        const intentId = idIn(/^\/v1\/payment_intents\/([^/]+)$/);
        if (method === "GET" && intentId) {
          const intent = paymentIntents.get(intentId);
          if (!intent) throw new ApiError(404, "invalid_request_error", `No such payment_intent: '${intentId}'`, { code: "resource_missing", param: "intent" });
          return intent;
        }
        if (method === "GET" && path === "/v1/balance") return balance();
        if (method === "GET" && path === "/v1/webhook_endpoints") {
          if (endpointsDenied) {
            throw new ApiError(403, "invalid_request_error", `The provided key '${secretKey.slice(0, 8)}***${secretKey.slice(-4)}' does not have the required permissions for this endpoint. Having the 'rak_webhook_read' permission would allow this request to continue.`);
          }
          const limit = params.limit === undefined ? 10 : integerParam(params.limit, "limit", { min: 1 });
          return { object: "list", data: endpoints.slice(0, limit), has_more: endpoints.length > limit, url: "/v1/webhook_endpoints" };
        }
        throw new ApiError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`);
      };
      const body = route();
      // Stripe keeps the answer of a request that ran; one refused before running (a bad
      // parameter, a front-door 5xx) is not kept, so the key may be used again.
      if (idempotencyKey) idempotent.set(idempotencyKey, { endpoint, body: raw, status: 200, response: structuredClone(body) });
      answer(200, body);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const extra: Record<string, string> = error.status >= 500 ? { "stripe-should-retry": "true" } : {};
      answer(error.status, { error: { type: error.type, message: error.message, ...error.extra, request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}` } }, extra);
    }
  }

  function page(res: ServerResponse, status: number, title: string, body: string) {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f6f9fc; color: #1a1f36; margin: 0; }
  main { max-width: 26rem; margin: 4rem auto; background: #fff; border-radius: 8px; padding: 2rem; box-shadow: 0 2px 8px rgba(0,0,0,.08); }
  h1 { font-size: 1.1rem; font-weight: 500; margin: 0 0 .5rem; }
  .amount { font-size: 2rem; font-weight: 600; margin: 0 0 1.5rem; }
  button { width: 100%; padding: .75rem; font-size: 1rem; border: 0; border-radius: 6px; background: #635bff; color: #fff; cursor: pointer; }
  a { color: #635bff; }
  .test { font-size: .75rem; text-transform: uppercase; color: #b45309; letter-spacing: .05em; }
</style></head>
<body><main><p class="test">Test mode</p>
${body}
</main></body></html>`);
  }

  /** The hosted Checkout page: what the guest sees, and paying. */
  async function handlePage(req: IncomingMessage, res: ServerResponse, id: string) {
    const session = sessions.get(id);
    if (!session) return page(res, 404, "Not found – Test checkout", `<h1>Something went wrong</h1><p>The page you were looking for could not be found.</p>`);
    const items = lineItems.get(id) ?? [];
    const amount = formatAmount(session.amount_total, session.currency, session.locale);
    const title = `Pay ${amount} – Test checkout`;
    const back = session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Back</a></p>` : "";
    const successUrl = session.success_url.replaceAll("{CHECKOUT_SESSION_ID}", session.id);
    if (req.method === "POST") {
      await readBody(req);
      if (session.status === "expired") return page(res, 400, `Session expired – Test checkout`, `<h1>This checkout session has expired</h1><p>Nothing was charged.</p>${back}`);
      if (session.status === "open") {
        const event = completeSession(session);
        // Stripe tells the app before the guest's browser lands on success_url (usually; the
        // app's success page must not count on it, and a test can send late with `send`).
        if (webhookUrl) await send(event);
      }
      res.writeHead(303, { location: successUrl });
      return res.end();
    }
    if (session.status === "expired") return page(res, 200, `Session expired – Test checkout`, `<h1>This checkout session has expired</h1><p>Nothing was charged.</p>${back}`);
    if (session.status === "complete") return page(res, 200, `Paid – Test checkout`, `<h1>Paid</h1><p class="amount">${escapeHtml(amount)}</p><p><a href="${escapeHtml(successUrl)}">Continue</a></p>`);
    const lines = items
      .map((item) => `<h1>${escapeHtml(item.name)}${item.quantity > 1 ? ` × ${item.quantity}` : ""}</h1>`)
      .join("\n");
    page(
      res,
      200,
      title,
      `${lines}
<p class="amount">${escapeHtml(amount)}</p>
${session.customer_email ? `<p>Email: <strong>${escapeHtml(session.customer_email)}</strong></p>` : ""}
<form method="post" action="/c/pay/${escapeHtml(session.id)}"><button type="submit">Pay</button></form>
${back}`,
    );
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const pay = /^\/c\/pay\/([^/]+)$/.exec(url.pathname);
    const done = pay?.[1] && (req.method === "GET" || req.method === "POST") ? handlePage(req, res, decodeURIComponent(pay[1])) : handleApi(req, res, url);
    done.catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { type: "api_error", message: `fake Stripe: ${String(error)}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  const settled = async () => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  };
  const sessionOrThrow = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`fake Stripe: no session ${id}`);
    return session;
  };

  return {
    url: baseUrl,
    secretKey,
    webhookSecret,
    received,
    get sessions() {
      return [...sessions.values()];
    },
    session: (id) => sessions.get(id),
    lineItems: (id) => lineItems.get(id) ?? [],
    paymentIntent: (id) => paymentIntents.get(id),
    refunds,
    refundCount: (paymentIntentId) => refunds.filter((r) => r.payment_intent === paymentIntentId).length,
    events,
    deliveries,
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    addWebhookEndpoint(url, enabledEvents = ["checkout.session.completed", "checkout.session.expired"], status = "enabled") {
      const endpoint: FakeWebhookEndpoint = {
        id: randomId("we_"),
        object: "webhook_endpoint",
        api_version: null,
        application: null,
        created: nowSeconds(),
        description: null,
        enabled_events: enabledEvents,
        livemode: false,
        metadata: {},
        status,
        url,
      };
      endpoints.push(endpoint);
      return endpoint;
    },
    denyWebhookEndpoints(deny = true) {
      endpointsDenied = deny;
    },
    failRefunds(n, status = 500) {
      refundFailures = { left: n, status };
    },
    async complete(sessionId, { send: sendIt = true } = {}) {
      const event = completeSession(sessionOrThrow(sessionId));
      if (sendIt && webhookUrl) await send(event);
      return event;
    },
    async expire(sessionId, { send: sendIt = true } = {}) {
      const event = expireSession(sessionOrThrow(sessionId));
      if (sendIt && webhookUrl) await send(event);
      return event;
    },
    makeEvent,
    send,
    settled,
    async close() {
      await settled();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}
