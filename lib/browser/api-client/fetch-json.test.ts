import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, fetchJson, waitPhrase } from "./fetch-json";

// fetchJson against a real HTTP server on loopback: every way an answer can go wrong must come
// out as one ApiError with a message fit for a person.

const HTML_502 = "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
};

const routes: Record<string, Handler> = {
  "/api/v1/html-502": (_req, res) => {
    res.writeHead(502, { "content-type": "text/html" });
    res.end(HTML_502);
  },
  "/api/v1/validation": (_req, res) =>
    json(res, 400, {
      error: "validation_error",
      message: "The request body is invalid",
      details: { issues: [{ path: "guestEmail", message: "Must be a valid email address" }, { path: "customAnswers.topic", message: '"Topic" needs an answer' }, { nonsense: true }, "text"] },
    }),
  "/api/v1/limited": (_req, res) =>
    json(res, 429, { error: "rate_limited", message: "Too many bookings for this email: at most 5 per hour", details: { retryAfterSeconds: 119.2 } }, { "retry-after": "120" }),
  "/api/v1/limited-date": (_req, res) =>
    json(res, 429, { error: "rate_limited", message: "Too many requests", details: {} }, { "retry-after": new Date(Date.now() + 30_000).toUTCString() }),
  "/api/v1/limited-body": (_req, res) => json(res, 429, { error: "rate_limited", message: "Slow down.", details: { retryAfterSeconds: 7200 } }),
  "/api/v1/proxy-json": (_req, res) => json(res, 503, { message: "upstream connect error or disconnect/reset before headers. reset reason: overflow" }),
  "/api/v1/echo": (req, res, body) => json(res, 201, { method: req.method, contentType: req.headers["content-type"], key: req.headers["idempotency-key"], body: JSON.parse(body) }),
  "/api/v1/empty": (_req, res) => {
    res.writeHead(204);
    res.end();
  },
  "/api/v1/portal": (_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html><body>Sign in to the hotel Wi-Fi</body></html>");
  },
  "/api/v1/cut": (_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
    res.write('{"slots": [');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  "/api/v1/slow": (_req, res) => {
    setTimeout(() => json(res, 200, {}), 2_000);
  },
};

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => (routes[req.url ?? ""] ?? ((_q, r) => json(r, 404, { error: "not_found", message: "No API route here", details: {} })))(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The ApiError a call fails with (the test fails if it succeeds or throws anything else). */
async function failure(path: string, options: Parameters<typeof fetchJson>[1] = {}): Promise<ApiError> {
  const error = await fetchJson(path, { baseUrl, ...options }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("fetchJson", () => {
  it("turns a proxy's HTML 502 page into a human message, never the HTML", async () => {
    const error = await failure("/html-502");
    expect(error).toMatchObject({ status: 502, code: "bad_response", issues: [] });
    expect(error.message).toBe("The service is unavailable right now. Please try again in a moment.");
    expect(error.message).not.toMatch(/<|nginx|Bad Gateway/);
  });

  it("turns a refused connection into status 0, network_error", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure("/anything", { baseUrl: `http://127.0.0.1:${port}/api/v1` });
    expect(error).toMatchObject({ status: 0, code: "network_error", issues: [] });
    expect(error.message).toMatch(/check your internet connection/i);
  });

  it("turns a connection cut in the middle of the body into network_error", async () => {
    const error = await failure("/cut");
    expect(error).toMatchObject({ status: 0, code: "network_error" });
  });

  it("keeps a JSON 400's code, message and well-formed issues", async () => {
    const error = await failure("/validation");
    expect(error).toMatchObject({ status: 400, code: "validation_error", message: "The request body is invalid" });
    expect(error.issues).toEqual([
      { path: "guestEmail", message: "Must be a valid email address" },
      { path: "customAnswers.topic", message: '"Topic" needs an answer' },
    ]);
    expect(error.issueAt("guestEmail")).toBe("Must be a valid email address");
    expect(error.issueAt("guestName")).toBeUndefined();
  });

  it("reads Retry-After on a 429 and says how long to wait", async () => {
    const error = await failure("/limited");
    expect(error).toMatchObject({ status: 429, code: "rate_limited", retryAfterSeconds: 120 });
    expect(error.message).toBe("Too many bookings for this email: at most 5 per hour. Please try again in about 2 minutes.");
  });

  it("reads Retry-After given as an HTTP date, or the body's retryAfterSeconds without the header", async () => {
    const byDate = await failure("/limited-date");
    expect(byDate.retryAfterSeconds).toBeGreaterThanOrEqual(28);
    expect(byDate.retryAfterSeconds).toBeLessThanOrEqual(30);
    expect(byDate.message).toMatch(/^Too many requests\. Please try again in (29|30|28) seconds\.$/);
    const byBody = await failure("/limited-body");
    expect(byBody).toMatchObject({ retryAfterSeconds: 7200, message: "Slow down. Please try again in about 2 hours." });
  });

  it("does not trust a JSON body that is not the API's error shape", async () => {
    const error = await failure("/proxy-json");
    expect(error).toMatchObject({ status: 503, code: "bad_response", message: "The service is unavailable right now. Please try again in a moment." });
  });

  it("treats a 2xx that is not JSON (a captive portal) as a bad response", async () => {
    const error = await failure("/portal");
    expect(error).toMatchObject({ status: 200, code: "bad_response" });
    expect(error.message).not.toMatch(/Wi-Fi|</);
  });

  it("sends JSON with extra headers and returns the parsed answer", async () => {
    const answer = await fetchJson<{ method: string; contentType: string; key: string; body: unknown }>("/echo", {
      baseUrl,
      method: "POST",
      headers: { "idempotency-key": "2c5ea4c0-4067-11e9-8bad-9b1deb4d3b7d" },
      body: { guestName: "Ada" },
    });
    expect(answer).toEqual({ method: "POST", contentType: "application/json", key: "2c5ea4c0-4067-11e9-8bad-9b1deb4d3b7d", body: { guestName: "Ada" } });
  });

  it("answers undefined for an empty 204", async () => {
    await expect(fetchJson("/empty", { baseUrl, method: "DELETE" })).resolves.toBeUndefined();
  });

  it("lets a cancellation stay a cancellation (not an ApiError)", async () => {
    const controller = new AbortController();
    const pending = fetchJson("/slow", { baseUrl, signal: controller.signal });
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe("AbortError");
  });
});

describe("waitPhrase", () => {
  it("rounds the wait the way a person would say it", () => {
    expect(waitPhrase(1)).toBe("1 second");
    expect(waitPhrase(0)).toBe("1 second");
    expect(waitPhrase(45)).toBe("45 seconds");
    expect(waitPhrase(60)).toBe("about 1 minute");
    expect(waitPhrase(61)).toBe("about 2 minutes");
    expect(waitPhrase(3599)).toBe("about 60 minutes");
    expect(waitPhrase(5400)).toBe("about 2 hours");
  });
});
