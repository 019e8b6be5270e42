import { z } from "zod";
import { validationError, type ValidationIssue } from "./errors";

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

/**
 * Reads a JSON request body. An empty body counts as `{}` (so optional-only bodies such as a
 * cancel reason may be left out); anything else must be JSON with a JSON content type.
 */
export async function readJsonBody(req: Request): Promise<unknown> {
  const text = await req.text();
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
