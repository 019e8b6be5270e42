import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

/**
 * The push halves of the fake providers, in their wire formats:
 * - Google Calendar watch channels: `POST /calendar/v3/calendars/{id}/events/watch` (Channel
 *   resource in, Channel with resourceId and expiration out), `POST /calendar/v3/channels/stop`,
 *   and notifications as Google sends them: an empty POST with X-Goog-Channel-ID,
 *   X-Goog-Channel-Token, X-Goog-Channel-Expiration, X-Goog-Resource-ID/-URI/-State and
 *   X-Goog-Message-Number (`sync` first).
 * - Graph subscriptions: `POST /v1.0/subscriptions` after the validation handshake (a POST to the
 *   notificationUrl with `?validationToken=`, which must come back as 200 text/plain within 10 s),
 *   `PATCH` and `DELETE /v1.0/subscriptions/{id}`, and change notifications
 *   `{"value":[{subscriptionId, clientState, changeType, resource, resourceData, …}]}`.
 * The providers call only https addresses. The app under test is reached over plain HTTP through
 * `routeHooks` (a TLS-terminating proxy in front of it, as in most deployments): the address the
 * app registered stays https, and that is what the fakes check.
 */

export type HookAnswer = { status: number; body: string; contentType: string | null };

/** Where https addresses are really delivered: a prefix rewrite (`https://booking.test` → `http://127.0.0.1:port`). */
export class HookRoute {
  private routes: [string, string][] = [];
  set(from: string, to: string): void {
    this.routes = [[from, to], ...this.routes.filter(([f]) => f !== from)];
  }
  async post(address: string, init: { headers: Record<string, string>; body?: string; timeoutMs?: number }): Promise<HookAnswer> {
    const route = this.routes.find(([from]) => address.startsWith(from));
    const target = route ? route[1] + address.slice(route[0].length) : address;
    const res = await fetch(target, { method: "POST", headers: init.headers, body: init.body, signal: AbortSignal.timeout(init.timeoutMs ?? 10_000) });
    return { status: res.status, body: await res.text(), contentType: res.headers.get("content-type") };
  }
}

// ---- Google ----

export type FakeGoogleChannel = {
  id: string;
  resourceId: string;
  calendarId: string;
  address: string;
  token: string | undefined;
  expiration: number;
  stopped: boolean;
  messageNumber: number;
  /** What our hook answered to each message sent on this channel. */
  answers: HookAnswer[];
};

const GOOGLE_MAX_TTL_S = 604_800;

export function googleChannels(deps: {
  apiBase: () => string;
  /** Throws the fake's API error (401/403/404) like the rest of the Calendar API. */
  authorize(req: IncomingMessage, calendarId?: string): void;
  fail(status: number, reason: string, message: string): Error;
  hooks: HookRoute;
}) {
  const channels: FakeGoogleChannel[] = [];
  const resourceIds = new Map<string, string>();
  const resourceIdOf = (calendarId: string) => {
    let id = resourceIds.get(calendarId);
    if (!id) resourceIds.set(calendarId, (id = randomBytes(14).toString("base64url")));
    return id;
  };

  async function deliver(channel: FakeGoogleChannel, state: string, overrides: Record<string, string> = {}): Promise<HookAnswer> {
    channel.messageNumber += 1;
    const headers: Record<string, string> = {
      "x-goog-channel-id": channel.id,
      "x-goog-channel-expiration": new Date(channel.expiration).toUTCString(),
      "x-goog-resource-id": channel.resourceId,
      "x-goog-resource-uri": `${deps.apiBase()}/calendar/v3/calendars/${encodeURIComponent(channel.calendarId)}/events?alt=json`,
      "x-goog-resource-state": state,
      "x-goog-message-number": String(channel.messageNumber),
      ...(channel.token === undefined ? {} : { "x-goog-channel-token": channel.token }),
      ...overrides,
    };
    const answer = await deps.hooks.post(channel.address, { headers });
    channel.answers.push(answer);
    return answer;
  }

  /** `segments` below /calendar/v3/; undefined when the request is not a push request. */
  function handle(req: IncomingMessage, segments: string[], body: string): { status: number; body: unknown } | undefined {
    const path = segments.join("/");
    if (req.method === "POST" && segments.length === 4 && segments[0] === "calendars" && segments[2] === "events" && segments[3] === "watch") {
      const calendarId = segments[1]!;
      deps.authorize(req, calendarId);
      const input = (body ? JSON.parse(body) : {}) as { id?: unknown; type?: unknown; address?: unknown; token?: unknown; params?: { ttl?: unknown } };
      if (typeof input.id !== "string" || !/^[A-Za-z0-9\-_+/=]{1,64}$/.test(input.id)) throw deps.fail(400, "invalid", "Invalid channel id.");
      if (input.type !== "web_hook" && input.type !== "webhook") throw deps.fail(400, "invalid", "Invalid value for: type.");
      if (typeof input.address !== "string" || !input.address.startsWith("https://")) {
        throw deps.fail(400, "push.webhookUrlNotHttps", `WebHook callback must be HTTPS: ${String(input.address)}`);
      }
      if (input.token !== undefined && (typeof input.token !== "string" || input.token.length > 256)) throw deps.fail(400, "invalid", "Invalid channel token.");
      if (channels.some((c) => c.id === input.id)) throw deps.fail(400, "channelIdNotUnique", "Channel id not unique.");
      const ttl = Math.min(Number(input.params?.ttl ?? GOOGLE_MAX_TTL_S) || GOOGLE_MAX_TTL_S, GOOGLE_MAX_TTL_S);
      const channel: FakeGoogleChannel = {
        id: input.id,
        resourceId: resourceIdOf(calendarId),
        calendarId,
        address: input.address,
        token: input.token as string | undefined,
        expiration: Date.now() + ttl * 1000,
        stopped: false,
        messageNumber: 0,
        answers: [],
      };
      channels.push(channel);
      // Google's first message on a new channel: `sync`, right after the answer.
      setImmediate(() => void deliver(channel, "sync").catch(() => undefined));
      return {
        status: 200,
        body: {
          kind: "api#channel",
          id: channel.id,
          resourceId: channel.resourceId,
          resourceUri: `${deps.apiBase()}/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events?alt=json`,
          ...(channel.token === undefined ? {} : { token: channel.token }),
          expiration: String(channel.expiration),
        },
      };
    }
    if (req.method === "POST" && path === "channels/stop") {
      deps.authorize(req);
      const input = (body ? JSON.parse(body) : {}) as { id?: unknown; resourceId?: unknown };
      const channel = channels.find((c) => c.id === input.id && c.resourceId === input.resourceId && !c.stopped);
      if (!channel) throw deps.fail(404, "notFound", `Channel '${String(input.id)}' not found for project '1234567890'`);
      channel.stopped = true;
      return { status: 204, body: undefined };
    }
    return undefined;
  }

  return {
    handle,
    channels,
    /** The calendar changed: Google tells every live channel on it (`exists`). */
    notify: (calendarId: string) => Promise.all(channels.filter((c) => c.calendarId === calendarId && !c.stopped && c.expiration > Date.now()).map((c) => deliver(c, "exists"))),
    /** A message on the channel with any header changed (a forgery, a stale channel). */
    send: (channel: FakeGoogleChannel, state: string, overrides: Record<string, string> = {}) => deliver(channel, state, overrides),
  };
}

// ---- Graph ----

export type FakeGraphSubscription = {
  id: string;
  resource: string;
  calendarId: string;
  changeType: string;
  notificationUrl: string;
  clientState: string | undefined;
  expirationDateTime: string;
  deleted: boolean;
  /** What our hook answered to each notification. */
  answers: HookAnswer[];
};

/** Graph's limit for subscriptions to Outlook events. */
const GRAPH_MAX_MINUTES = 4230;

export function graphSubscriptions(deps: {
  /** Throws the fake's Graph error when the bearer token does not hold. */
  authorize(req: IncomingMessage): void;
  fail(status: number, code: string, message: string): Error;
  calendarExists(id: string): boolean;
  userId: string;
  hooks: HookRoute;
}) {
  const subscriptions: FakeGraphSubscription[] = [];
  const handshakes: { url: string; answer: HookAnswer | undefined; error?: string }[] = [];

  function expiry(value: unknown): string {
    const at = Date.parse(typeof value === "string" ? value : "");
    if (Number.isNaN(at)) throw deps.fail(400, "InvalidRequest", "expirationDateTime is required.");
    if (at <= Date.now()) throw deps.fail(400, "InvalidRequest", "Subscription expiration must be in the future.");
    if (at > Date.now() + GRAPH_MAX_MINUTES * 60_000 + 60_000) throw deps.fail(400, "InvalidRequest", `Subscription expiration can only be ${GRAPH_MAX_MINUTES} minutes in the future.`);
    return new Date(at).toISOString().replace("Z", "0000Z");
  }

  const view = (s: FakeGraphSubscription) => ({
    "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#subscriptions/$entity",
    id: s.id,
    resource: s.resource,
    applicationId: "24d3b144-21ae-4080-943f-7067b395b913",
    changeType: s.changeType,
    clientState: s.clientState ?? null,
    notificationUrl: s.notificationUrl,
    expirationDateTime: s.expirationDateTime,
    creatorId: deps.userId,
    latestSupportedTlsVersion: "v1_2",
  });

  async function deliver(subscription: FakeGraphSubscription, items: Record<string, unknown>[]): Promise<HookAnswer> {
    const answer = await deps.hooks.post(subscription.notificationUrl, {
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ value: items }),
      timeoutMs: 3_000,
    });
    subscription.answers.push(answer);
    return answer;
  }

  const change = (s: FakeGraphSubscription, changeType: string, overrides: Record<string, unknown> = {}) => {
    const eventId = `AAMkAG${randomBytes(30).toString("base64url")}AAA=`;
    return {
      subscriptionId: s.id,
      subscriptionExpirationDateTime: s.expirationDateTime,
      changeType,
      resource: `Users/${deps.userId}/Events/${eventId}`,
      resourceData: { "@odata.type": "#Microsoft.Graph.Event", "@odata.id": `Users/${deps.userId}/Events/${eventId}`, "@odata.etag": 'W/"DwAAABYAAAA="', id: eventId },
      clientState: s.clientState ?? null,
      tenantId: "84bd8158-6d4d-4958-8b9f-9d6445542f95",
      ...overrides,
    };
  };

  /** `parts` below /v1.0/; undefined when the request is not about subscriptions. */
  async function handle(method: string, parts: string[], req: IncomingMessage, body: string): Promise<{ status: number; body: unknown } | undefined> {
    if (parts[0] !== "subscriptions") return undefined;
    deps.authorize(req);
    const json = () => {
      try {
        return (body ? JSON.parse(body) : {}) as Record<string, unknown>;
      } catch {
        throw deps.fail(400, "UnableToDeserializePostBody", "were unable to deserialize");
      }
    };
    if (method === "POST" && parts.length === 1) {
      const input = json();
      const changeType = typeof input.changeType === "string" ? input.changeType : "";
      if (!changeType || changeType.split(",").some((c) => !["created", "updated", "deleted"].includes(c))) throw deps.fail(400, "InvalidRequest", "changeType is invalid.");
      const notificationUrl = typeof input.notificationUrl === "string" ? input.notificationUrl : "";
      if (!notificationUrl.startsWith("https://")) throw deps.fail(400, "InvalidRequest", "The notification URL must use https.");
      const resource = typeof input.resource === "string" ? input.resource : "";
      const match = /^me\/calendars\/([^/]+)\/events$/.exec(resource);
      if (!match || !deps.calendarExists(decodeURIComponent(match[1]!))) throw deps.fail(404, "ResourceNotFound", `Resource '${resource}' does not exist or one of its queried reference-property objects are not present.`);
      const clientState = input.clientState === undefined ? undefined : String(input.clientState);
      if (clientState !== undefined && clientState.length > 128) throw deps.fail(400, "InvalidRequest", "clientState must be at most 128 characters.");
      const expirationDateTime = expiry(input.expirationDateTime);
      // The handshake: Graph creates nothing until the endpoint echoes its token.
      const validationToken = `Validation: Testing client application reachability for subscription Request-Id: ${randomUUID()}`;
      const url = `${notificationUrl}${notificationUrl.includes("?") ? "&" : "?"}validationToken=${encodeURIComponent(validationToken)}`;
      let answer: HookAnswer | undefined;
      try {
        answer = await deps.hooks.post(url, { headers: { "content-type": "text/plain; charset=utf-8" }, timeoutMs: 10_000 });
        handshakes.push({ url, answer });
      } catch (e) {
        handshakes.push({ url, answer: undefined, error: String(e) });
      }
      if (!answer || answer.status !== 200 || answer.body !== validationToken || !(answer.contentType ?? "").startsWith("text/plain")) {
        throw deps.fail(400, "ValidationError", "Subscription validation request failed. Notification endpoint must respond with 200 OK to validation request.");
      }
      const subscription: FakeGraphSubscription = {
        id: randomUUID(),
        resource,
        calendarId: decodeURIComponent(match[1]!),
        changeType,
        notificationUrl,
        clientState,
        expirationDateTime,
        deleted: false,
        answers: [],
      };
      subscriptions.push(subscription);
      return { status: 201, body: view(subscription) };
    }
    const subscription = parts.length === 2 ? subscriptions.find((s) => s.id === parts[1] && !s.deleted) : undefined;
    if (parts.length === 2 && (method === "PATCH" || method === "DELETE" || method === "GET")) {
      if (!subscription) throw deps.fail(404, "ResourceNotFound", `The object was not found.`);
      if (method === "GET") return { status: 200, body: view(subscription) };
      if (method === "DELETE") {
        subscription.deleted = true;
        return { status: 204, body: undefined };
      }
      subscription.expirationDateTime = expiry(json().expirationDateTime);
      return { status: 200, body: view(subscription) };
    }
    throw deps.fail(400, "BadRequest", `Resource not found for the segment '${parts.at(-1)}'.`);
  }

  return {
    handle,
    subscriptions,
    handshakes,
    /** An event of the calendar changed: Graph notifies every live subscription on it. */
    notify: (calendarId: string, changeType = "created") =>
      Promise.all(subscriptions.filter((s) => s.calendarId === calendarId && !s.deleted && Date.parse(s.expirationDateTime) > Date.now()).map((s) => deliver(s, [change(s, changeType)]))),
    /** A notification on the subscription with fields changed (a forgery). */
    send: (subscription: FakeGraphSubscription, overrides: Record<string, unknown>) => deliver(subscription, [change(subscription, "updated", overrides)]),
  };
}
