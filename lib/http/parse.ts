import "server-only";
import { z } from "zod";
import { AppError, validationError, type ValidationIssue } from "@/lib/errors";
import { UNSTORABLE } from "@/lib/schemas/common";
import { zodIssues } from "@/lib/schemas/issues";
import { plainMessage } from "./plain-messages";


const UNSTORABLE_MESSAGE = "Must not contain NUL characters or unpaired surrogates";

/**
 * Every string in the input, keys included, at its path: NUL or an unpaired surrogate anywhere
 * is refused before any schema sees it, so no field (a URL, an email, an enum) can carry one to
 * the database, which would refuse it with a 500. The schemas' own `Text` type says the same for
 * the OpenAPI document. The walk keeps its own stack: JSON nested 100,000 deep is a body too.
 */
function unstorableIssues(root: unknown): ValidationIssue[] {
  type Node = { value: unknown; key?: string; parent?: Node };
  const pathOf = (node: Node, key?: string) => {
    const keys: string[] = key === undefined ? [] : [key];
    for (let n: Node | undefined = node; n?.key !== undefined; n = n.parent) keys.unshift(n.key);
    return keys.join(".").replace(/[\u0000\p{Cs}]/gu, "\uFFFD");
  };
  const found: ValidationIssue[] = [];
  const stack: Node[] = [{ value: root }];
  while (stack.length > 0 && found.length < 20) {
    const node = stack.pop()!;
    const { value } = node;
    if (typeof value === "string") {
      if (UNSTORABLE.test(value)) found.push({ path: pathOf(node), message: UNSTORABLE_MESSAGE });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: String(i), parent: node });
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value).reverse()) {
        if (UNSTORABLE.test(key)) found.push({ path: pathOf(node, key), message: UNSTORABLE_MESSAGE });
        else stack.push({ value: item, key, parent: node });
      }
    }
  }
  return found;
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const unstorable = unstorableIssues(value);
  if (unstorable.length > 0) throw validationError(unstorable, `The ${what} is invalid`);
  const result = schema.safeParse(value, { error: plainMessage });
  if (!result.success) throw validationError(zodIssues(result.error), `The ${what} is invalid`);
  return result.data;
}

// parseKept's outputs by schema, then by the raw value's text.
const kept = new WeakMap<z.ZodType, Map<string, unknown>>();
const KEPT_PER_SCHEMA = 1_000;
const KEPT_KEY_MAX = 512;

/**
 * parseWith for values that come back again and again (a read's path and query: a guest's page
 * asks for the same slots many times): a successful parse of flat values (strings, numbers,
 * booleans) is kept by `key`, the raw value's text, and answered again without parsing. What is
 * kept is frozen, so no handler can change it for the next request; invalid values are parsed
 * (and refused) every time. Bounded: at most 1,000 values a schema, keys of at most 512 characters.
 */
export function parseKept<S extends z.ZodType>(schema: S, key: string, read: () => unknown, what: string): z.output<S> {
  let byKey = kept.get(schema);
  const hit = byKey?.get(key);
  if (hit !== undefined) return hit as z.output<S>;
  const parsed = parseWith(schema, read(), what);
  if (key.length > KEPT_KEY_MAX || !isFlat(parsed)) return parsed;
  if (!byKey) kept.set(schema, (byKey = new Map()));
  if (byKey.size >= KEPT_PER_SCHEMA) byKey.clear();
  Object.freeze(parsed);
  byKey.set(key, parsed);
  return parsed;
}

function isFlat(value: unknown): value is Record<string, string | number | boolean | undefined> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  return Object.values(value).every((v) => v === undefined || ["string", "number", "boolean"].includes(typeof v));
}

/** The largest request body the API reads; nothing it accepts comes near it. */
export const MAX_BODY_BYTES = 1024 * 1024;

function tooLarge(): AppError {
  return new AppError("payload_too_large", `The request body must be at most ${MAX_BODY_BYTES} bytes`, { maxBytes: MAX_BODY_BYTES });
}

/** The body as text, refusing to buffer more than MAX_BODY_BYTES whatever Content-Length says. */
async function readText(req: Request): Promise<string> {
  const bytes = await readBodyBytes(req);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}

/**
 * The body's bytes, at most MAX_BODY_BYTES (413 payload_too_large past them, counted as they
 * arrive, so a chunked body without Content-Length is stopped too).
 */
export async function readBodyBytes(req: Request): Promise<Uint8Array> {
  if (Number(req.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads a JSON request body. An empty body counts as `{}` (so optional-only bodies such as a
 * cancel reason may be left out); anything else must be JSON with a JSON content type.
 */
export async function readJsonBody(req: Request): Promise<unknown> {
  const text = await readText(req);
  if (text.trim() === "") return {};
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw validationError(
      [{ path: "", message: "Content-Type must be application/json" }],
      "The request body must be JSON",
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw validationError(
      [{ path: "", message: error instanceof SyntaxError ? error.message : "Malformed JSON" }],
      "The request body is not valid JSON",
    );
  }
}

/** Query parameters as a plain object of strings (the last value wins for repeated keys). */
export function queryObject(url: URL): Record<string, string> {
  return Object.fromEntries(url.searchParams.entries());
}

/** Reads an HTML-form body (application/x-www-form-urlencoded), as telephony providers post their callbacks. */
export async function readFormBody(req: Request): Promise<URLSearchParams> {
  const text = await readText(req);
  const type = req.headers.get("content-type") ?? "";
  if (text.trim() !== "" && !/^application\/x-www-form-urlencoded\b/i.test(type)) {
    throw validationError(
      [{ path: "", message: "Content-Type must be application/x-www-form-urlencoded" }],
      "The request body must be a form",
    );
  }
  return new URLSearchParams(text);
}
