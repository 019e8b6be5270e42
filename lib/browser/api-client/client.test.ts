import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApiClient, dataOf } from "./client";
import { ApiError } from "./fetch-json";

// The typed client (openapi-fetch) against a real HTTP server on loopback: it must fail the way
// fetchJson does (fetch-json.test.ts), one ApiError with a message fit for a person, and send
// what the document says where it says it (path parameters, query, JSON body).

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
type Seen = { method?: string; url?: string; headers: IncomingMessage["headers"]; body: string };

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
};

let answer: Handler;
let seen: Seen;
let server: Server;
let client: ReturnType<typeof createApiClient>;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      seen = { method: req.method, url: req.url, headers: req.headers, body };
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  client = createApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`);
});

beforeEach(() => {
  answer = (_req, res) => json(res, 200, {});
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The ApiError a call fails with (the test fails if it succeeds or throws anything else). */
async function failure(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("the typed client", () => {
  it("sends the path parameters encoded, the query, and a JSON body, and answers the parsed data", async () => {
    answer = (_req, res) => json(res, 200, { id: "b1", status: "cancelled" });
    const data = await dataOf(client.POST("/me/bookings/{bookingId}/cancel", { params: { path: { bookingId: "a/b c" } }, body: { reason: "Ill" } }));
    expect(data).toEqual({ id: "b1", status: "cancelled" });
    expect(seen).toMatchObject({ method: "POST", url: "/api/v1/me/bookings/a%2Fb%20c/cancel", body: '{"reason":"Ill"}' });
    expect(seen.headers).toMatchObject({ accept: "application/json", "content-type": "application/json" });

    await dataOf(client.GET("/me/bookings", { params: { query: { status: "pending,confirmed", page: "2", q: undefined } } }));
    expect(seen.url).toBe("/api/v1/me/bookings?status=pending%2Cconfirmed&page=2");
  });

  it("sends a key as its bearer header when given one", async () => {
    await dataOf(createApiClient(baseOf(), { authorization: "Bearer bk_test" }).GET("/me"));
    expect(seen.headers.authorization).toBe("Bearer bk_test");
  });

  it("answers undefined for an empty 204", async () => {
    answer = (_req, res) => {
      res.writeHead(204);
      res.end();
    };
    await expect(dataOf(client.DELETE("/me/webhooks/{webhookId}", { params: { path: { webhookId: "w1" } } }))).resolves.toBeUndefined();
  });

  it("turns a proxy's HTML 502 page into a human message, never the HTML", async () => {
    answer = (_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body><h1>502 Bad Gateway</h1>nginx</body></html>");
    };
    const error = await failure(dataOf(client.GET("/me")));
    expect(error).toMatchObject({ status: 502, code: "bad_response", message: "The service is unavailable right now. Please try again in a moment." });
  });

  it("keeps a JSON 400's code, message and issues", async () => {
    answer = (_req, res) =>
      json(res, 400, { error: "validation_error", message: "The request body is invalid", details: { issues: [{ path: "name", message: "Needs a name" }, { nonsense: true }] } });
    const error = await failure(dataOf(client.POST("/me/teams", { body: { slug: "a", name: "" } })));
    expect(error).toMatchObject({ status: 400, code: "validation_error", message: "The request body is invalid", issues: [{ path: "name", message: "Needs a name" }] });
  });

  it("reads Retry-After on a 429 and says how long to wait", async () => {
    answer = (_req, res) => json(res, 429, { error: "rate_limited", message: "Too many requests", details: {} }, { "retry-after": "120" });
    const error = await failure(dataOf(client.GET("/me")));
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 120, message: "Too many requests. Please try again in about 2 minutes." });
  });

  it("does not trust a JSON error that is not the API's shape, nor a 2xx that is not JSON", async () => {
    answer = (_req, res) => json(res, 503, { message: "upstream connect error" });
    expect(await failure(dataOf(client.GET("/me")))).toMatchObject({ status: 503, code: "bad_response", message: "The service is unavailable right now. Please try again in a moment." });
    answer = (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>Sign in to the hotel Wi-Fi</body></html>");
    };
    const portal = await failure(dataOf(client.GET("/me")));
    expect(portal).toMatchObject({ status: 200, code: "bad_response" });
    expect(portal.message).not.toMatch(/Wi-Fi|</);
  });

  it("turns a refused connection, or one cut in the middle of the body, into network_error", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await failure(dataOf(createApiClient(`http://127.0.0.1:${port}/api/v1`).GET("/me")));
    expect(refused).toMatchObject({ status: 0, code: "network_error" });
    expect(refused.message).toMatch(/check your internet connection/i);

    answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"id": ');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    expect(await failure(dataOf(client.GET("/me")))).toMatchObject({ status: 0, code: "network_error" });
  });

  it("lets a cancellation stay a cancellation (not an ApiError)", async () => {
    answer = (_req, res) => setTimeout(() => json(res, 200, {}), 2_000);
    const controller = new AbortController();
    const pending = dataOf(client.GET("/me", { signal: controller.signal }));
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe("AbortError");
  });
});

/** The loopback server's /api/v1. */
function baseOf() {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
}
