import { z } from "zod";
import { AppError, validationError, type ValidationIssue } from "@/lib/errors";

export function zodIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.flatMap((issue) => {
    const at = issue.path.map(String);
    // One issue per unknown field, at that field's own path, so a client can point at it.
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ path: [...at, key].join("."), message: "Unknown field" }));
    }
    return [{ path: at.join("."), message: issue.message }];
  });
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(zodIssues(result.error), `The ${what} is invalid`);
  return result.data;
}

/** The largest request body the API reads; nothing it accepts comes near it. */
export const MAX_BODY_BYTES = 1024 * 1024;

function tooLarge(): AppError {
  return new AppError("payload_too_large", `The request body must be at most ${MAX_BODY_BYTES} bytes`, { maxBytes: MAX_BODY_BYTES });
}

/** The body as text, refusing to buffer more than MAX_BODY_BYTES whatever Content-Length says. */
async function readText(req: Request): Promise<string> {
  if (Number(req.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  if (!req.body) return "";
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
  return Buffer.concat(chunks).toString("utf8");
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
