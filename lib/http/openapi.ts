import "server-only";
import { z } from "zod";
import { ErrorBody } from "@/lib/schemas/common";
import { errorStatus } from "./errors";
import { routeAccess } from "./scopes";
import type { ErrorSpec, RouteHandler } from "./route";

// Builds the OpenAPI 3.1 document from the routes themselves: each route declares its zod
// schemas once, and they serve both validation and this document, so the two cannot drift.
// Paths are full paths on the site (the server is APP_URL): the JSON API under /api/v1 and the
// routes outside it (the outbound-calling service, /health) in one document.

type JsonSchema = Record<string, unknown>;

const statusText: Record<number, string> = {
  400: "Invalid input (validation_error)",
  401: "Missing or invalid bearer token or session (unauthorized)",
  403: "An API key without the scope the route needs (details.requiredScope) or on a route only the person may use, or a session-cookie write from another origin (forbidden)",
  404: "Not found, or not yours (not_found)",
  409: "Conflict",
  410: "No longer there: used, expired or withdrawn (gone)",
  413: "Request body over 1 MiB (payload_too_large)",
  422: "Idempotency key reused with another body (idempotency_key_mismatch)",
  429: "Rate limited (rate_limited)",
  503: "Unavailable",
};

class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  /** A zod schema as OpenAPI JSON Schema, its named parts moved to components. */
  convert(schema: z.ZodType, io: "input" | "output"): JsonSchema {
    const raw = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
    const { $defs, $schema: _ignored, ...rest } = raw as JsonSchema & { $defs?: Record<string, JsonSchema> };
    void _ignored;
    for (const [name, def] of Object.entries($defs ?? {})) {
      // Input and output shapes differ (defaults make fields optional on input).
      this.components[io === "input" ? `${name}Input` : name] = this.rewrite(def, io) as JsonSchema;
    }
    return this.rewrite(rest, io) as JsonSchema;
  }

  private rewrite(value: unknown, io: "input" | "output"): unknown {
    if (Array.isArray(value)) return value.map((v) => this.rewrite(v, io));
    if (value && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => {
          if (k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/")) {
            const name = v.slice("#/$defs/".length);
            return [k, `#/components/schemas/${io === "input" ? `${name}Input` : name}`];
          }
          return [k, this.rewrite(v, io)];
        }),
      );
    }
    return value;
  }
}

function parameters(collector: SchemaCollector, where: "path" | "query", schema: z.ZodType | undefined) {
  if (!schema) return [];
  const converted = collector.convert(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(converted.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === "path" || (converted.required ?? []).includes(name),
    schema: s,
  }));
}

/** A message the service sends (OpenAPI 3.1 `webhooks`): its name, what it means, its body. */
export type OutgoingWebhook = { name: string; summary: string; body: z.ZodType };

const WEBHOOK_HEADERS = [
  ["webhook-id", "The message id: the same on every attempt of one message; de-duplicate on it"],
  ["webhook-timestamp", "Unix seconds when this attempt was signed"],
  ["webhook-signature", "v1,<base64 HMAC-SHA256> per Standard Webhooks; several, space-separated, while a rotated secret still signs"],
] as const;

function webhookOperations(collector: SchemaCollector, webhooks: OutgoingWebhook[]) {
  return Object.fromEntries(
    webhooks.map((w) => [
      w.name,
      {
        post: {
          summary: w.summary,
          parameters: WEBHOOK_HEADERS.map(([name, description]) => ({ name, in: "header", required: true, description, schema: { type: "string" } })),
          requestBody: { required: true, content: { "application/json": { schema: collector.convert(w.body, "output") } } },
          responses: {
            "2XX": { description: "Delivered" },
            "410": { description: "Gone: the webhook is turned off and gets nothing more" },
            default: { description: "Any other answer, or none within 15 s: retried with backoff for about a day" },
          },
        },
      },
    ]),
  );
}


/** `post` and `/api/v1/me/bookings/{bookingId}/cancel` → `postApiV1MeBookingsBookingIdCancel`. */
function operationId(method: string, path: string): string {
  return `${method.toLowerCase()}${path.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""))}`;
}

type Mounted = Required<Pick<RouteHandler, "spec" | "mount">>;

/** Every status a route can answer: its own, and the errors its spec implies (auth, limits, a body). */
function responsesOf(collector: SchemaCollector, { spec }: Mounted, errorRef: { $ref: string }): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(spec.responses)) {
    const others = Object.entries(r.otherMediaTypes ?? {}).map(([type, { example }]) => [type, { schema: { type: "string" }, example }] as const);
    const content = { ...(r.schema ? { "application/json": { schema: collector.convert(r.schema as z.ZodType, "output") } } : {}), ...Object.fromEntries(others) };
    responses[status] = Object.keys(content).length > 0 ? { description: r.description, content } : { description: r.description };
  }
  const errorCodes = new Set<number>();
  const described = new Map<number, string>();
  for (const e of (spec.errors ?? []) as ErrorSpec[]) {
    if (typeof e === "number") errorCodes.add(e);
    else {
      errorCodes.add(e.status);
      described.set(e.status, e.description);
    }
  }
  if (spec.auth === "host") {
    errorCodes.add(errorStatus.unauthorized);
    errorCodes.add(errorStatus.rate_limited);
    errorCodes.add(errorStatus.forbidden);
  }
  // Every route counts against a limit: its own, the person's or key's, or the client address's.
  errorCodes.add(errorStatus.rate_limited);
  if (spec.body || spec.query) errorCodes.add(errorStatus.validation_error);
  if (spec.body) errorCodes.add(errorStatus.payload_too_large);
  for (const status of [...errorCodes].sort((a, b) => a - b)) {
    responses[String(status)] = {
      description: described.get(status) ?? statusText[status] ?? "Error",
      content: { "application/json": { schema: errorRef } },
    };
  }
  return responses;
}

/** One route's operation: its words, security, parameters, body and responses. */
function operationOf(collector: SchemaCollector, { spec, mount }: Mounted, errorRef: { $ref: string }) {
  // Responses first: the collector names shared schemas in the order it meets them.
  const responses = responsesOf(collector, { spec, mount }, errorRef);
  // OpenAPI 3.1 lets a non-OAuth scheme list the roles an operation needs: a key's scope.
  const access = spec.auth === "host" ? routeAccess(mount.method, mount.path) : undefined;
  return {
    summary: spec.summary,
    tags: spec.tags,
    operationId: operationId(mount.method, mount.path),
    security: spec.auth === "host" ? [{ bearer: [] }, { session: [] }, ...(access === "person" ? [] : [{ apiKey: [access] }])] : [],
    ...(access ? { "x-api-key-scope": access === "person" ? null : access } : {}),
    parameters: [
      ...parameters(collector, "path", spec.params as z.ZodType | undefined),
      ...parameters(collector, "query", spec.query as z.ZodType | undefined),
      ...(spec.headers ?? []).map((h) => ({ name: h.name, in: "header", required: h.required, description: h.description, schema: { type: "string" } })),
    ],
    ...(spec.body
      ? {
          requestBody: {
            required: true,
            content: {
              [spec.bodyFormat === "form" ? "application/x-www-form-urlencoded" : "application/json"]: {
                schema: collector.convert(spec.body as z.ZodType, "input"),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/** The document for these handlers; `serverUrl` is the site's origin (APP_URL), paths are full. */
export function buildOpenApiDocument(handlers: RouteHandler[], serverUrl: string, webhooks: OutgoingWebhook[] = []) {
  const collector = new SchemaCollector();
  const paths: Record<string, Record<string, unknown>> = {};
  // ErrorBody carries its own id ("Error"): converting it files the schema under that name and
  // answers a $ref to it. Assigning that answer to components.Error, as this once did, made the
  // component a reference to itself, a document no generator of types could read.
  const errorRef = collector.convert(ErrorBody, "output") as { $ref: string };

  for (const { spec, mount } of handlers) {
    if (!spec || !mount) continue;
    paths[mount.path] ??= {};
    paths[mount.path]![mount.method.toLowerCase()] = operationOf(collector, { spec, mount }, errorRef);
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Calendar booking service",
      version: "1.0.0",
      description: "Hosts publish event types; guests book them without an account. Errors are always {error, message, details}.",
    },
    servers: [{ url: serverUrl }],
    paths,
    ...(webhooks.length ? { webhooks: webhookOperations(collector, webhooks) } : {}),
    components: {
      schemas: collector.components,
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "A person's access token (POST /api/v1/auth/login)" },
        apiKey: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "bk_…",
          description:
            "An API key (Settings → API keys, or POST /api/v1/me/api-keys), sent as `Authorization: Bearer bk_…`. Each operation lists the scope it needs; an operation without this scheme needs the person's own sign-in. x-api-key-scope says the same per operation.",
        },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "next-auth.session-token",
          description: "The dashboard's session (HttpOnly). Writes with it must carry this service's own Origin header.",
        },
      },
    },
  };
}
