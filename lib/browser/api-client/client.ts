import createClient, { type Middleware } from "openapi-fetch";
import { API_BASE, ApiError, errorOf, fallbackMessage, networkMessage } from "./fetch-json";
import type { components, paths } from "./openapi";

// The dashboard's client of /api/v1, typed by the OpenAPI document itself (openapi.d.ts, made by
// `npm run api:types`): a path, its parameters, its body and its answer are the document's, so a
// route whose schemas change breaks the calls that no longer fit at compile time. Failures come
// out exactly as fetchJson's: one ApiError with words fit for a person.

/** The document's paths below /api/v1, as the pages write them: "/me/bookings". */
export type ApiPaths = { [P in keyof paths as P extends `/api/v1${infer Rest}` ? Rest : never]: paths[P] };

/** The document's named schemas: `Schemas["Booking"]`. */
export type Schemas = components["schemas"];

type Method = "get" | "put" | "post" | "patch" | "delete";
type Operation<P extends keyof ApiPaths, M extends Method> = NonNullable<ApiPaths[P][M]>;
type JsonOf<R> = R extends { content: { "application/json": infer T } } ? T : never;

/** The JSON a successful call answers (200 or 201; undefined for a 204 without a body). */
export type AnswerOf<P extends keyof ApiPaths, M extends Method> = Operation<P, M> extends { responses: infer R }
  ? { [S in keyof R]: S extends 200 | 201 ? JsonOf<R[S]> : never }[keyof R]
  : never;

/** The JSON body an operation takes. */
export type BodyOf<P extends keyof ApiPaths, M extends Method> = Operation<P, M> extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;

/** The path parameters an operation takes. */
export type PathParamsOf<P extends keyof ApiPaths, M extends Method> = Operation<P, M> extends { parameters: { path?: infer A } } ? NonNullable<A> : never;

/**
 * fetchJson's rules as openapi-fetch middleware. A failed answer throws here, so a call resolves
 * only with its data: the `error` openapi-fetch would return is never seen by the pages.
 */
const asApiErrors: Middleware = {
  async onResponse({ response }) {
    let text: string;
    try {
      // A copy is read, so openapi-fetch still reads the answer itself after this check.
      text = await response.clone().text();
    } catch {
      // A connection that drops mid-body is a network failure too.
      throw new ApiError(0, "network_error", networkMessage());
    }
    if (!response.ok) throw errorOf(response, text);
    if (text.trim() !== "") {
      try {
        JSON.parse(text);
      } catch {
        // A 2xx that is not JSON came from something between us and the API (a captive portal, a proxy).
        throw new ApiError(response.status, "bad_response", fallbackMessage(502));
      }
    }
    return undefined;
  },
  onError({ error, request }) {
    // A cancelled request (TanStack Query aborts what is no longer needed) stays a cancellation.
    if (request.signal.aborted) return error instanceof Error ? error : undefined;
    return new ApiError(0, "network_error", networkMessage());
  },
};

/**
 * A client of /api/v1 at `baseUrl` (the page's own origin unless given: tests, scripts). The
 * dashboard authenticates with its same-origin session cookie; any other caller gives an
 * `authorization` header (docs/api.md).
 */
export function createApiClient(baseUrl = API_BASE, headers: Record<string, string> = {}) {
  const client = createClient<ApiPaths>({
    baseUrl,
    credentials: "same-origin",
    headers: { accept: "application/json", ...headers },
    // Looked up at each call, not once at load: tests and tools stub the global fetch.
    fetch: (request) => globalThis.fetch(request),
  });
  client.use(asApiErrors);
  return client;
}

/** The dashboard's client. */
export const api = createApiClient();

/**
 * The data of a call: a failure has thrown an ApiError already (asApiErrors), so what is left is
 * the answer, or undefined for an empty one (204).
 */
export async function dataOf<T>(call: Promise<{ data?: T }>): Promise<T> {
  return (await call).data as T;
}
