import { zodResolver } from "@hookform/resolvers/zod";
import { get, set, type FieldError, type FieldErrors as FormErrors, type FieldValues, type Resolver, type ResolverResult } from "react-hook-form";
import type { z } from "zod";
import { plainMessage } from "@/lib/http/plain-messages";
import { hasErrors, placeIssues, type FieldErrors, type FoundIssue } from "./field-errors";

// A dashboard form's check before anything is sent: the API's own body schema (lib/schemas),
// run by zodResolver on the body the form would send, with the API's plain words for issues a
// schema does not word itself (lib/http/plain-messages.ts). A form's fields are not always the
// body's (numbers typed as text, the availability's rows against the body's flat list of rules):
// `fieldOf` places an issue at the field that shows it, as the API's own 400 issues are placed;
// `words` may say it in the page's words. The rules themselves are only in the schema.

export type FormRules<V, C = undefined> = {
  /** The API's schema of the request body. */
  schema: z.ZodType;
  /** The body the form sends (the values as they are when omitted). */
  toBody?: (values: V, context: C) => unknown;
  /** The field that shows a problem at the body path `path`, or undefined when none does (the API will say it). */
  fieldOf?: (path: string, values: V) => string | undefined;
  /** The page's words for a problem the browser found (undefined keeps the schema's). */
  words?: (issue: FoundIssue, values: V) => string | undefined;
};

/**
 * Rules loaded when a form first needs them (lazyRules): an account page's schemas, and zod with
 * them, are most of its JavaScript, and its fields need no check before the first submit.
 */
export type LazyRules<V, C = undefined> = { load: () => Promise<FormRules<V, C>> };

/** Rules from `load` (a dynamic import), loaded once; a load that failed (offline) is tried again when next asked. */
export function lazyRules<V, C = undefined>(load: () => Promise<FormRules<V, C>>): LazyRules<V, C> {
  let loading: Promise<FormRules<V, C>> | undefined;
  return {
    load: () =>
      (loading ??= load().catch((error: unknown) => {
        loading = undefined;
        throw error;
      })),
  };
}

/** Every error in react-hook-form's nested errors, by path ("customQuestions.0.label", "customQuestions.root"). */
export function errorList(errors: object | undefined, prefix = ""): { path: string; message: string; type: string }[] {
  const found: { path: string; message: string; type: string }[] = [];
  if (!errors || typeof errors !== "object") return found;
  const error = errors as Partial<FieldError>;
  if (typeof error.message === "string" && typeof error.type === "string") found.push({ path: prefix, message: error.message, type: error.type });
  for (const [key, value] of Object.entries(errors)) {
    // An error's own `ref` (the element) and `types`; a field may well be called `type` (a question's).
    if (key === "ref" || key === "types" || value === null || typeof value !== "object") continue;
    found.push(...errorList(value as object, prefix ? `${prefix}.${key}` : key));
  }
  return found;
}

/** Flat problems as react-hook-form's nested errors, each of `type` (the API's are "server"). */
export function nestErrors<V extends FieldValues = FieldValues>(problems: FieldErrors, type = "local"): FormErrors<V> {
  const errors: FormErrors<V> = {};
  for (const [path, message] of Object.entries(problems)) if (message !== undefined) set(errors, path, { type, message });
  return errors;
}

/** Every problem the browser finds in `values`, at the fields that show them, in the page's words. */
export async function checkForm<V, C>(given: FormRules<V, C> | LazyRules<V, C>, values: V, context?: C): Promise<FieldErrors> {
  const rules = "load" in given ? await given.load() : given;
  const body = rules.toBody ? rules.toBody(values, context as C) : values;
  const parse = zodResolver(rules.schema as z.ZodType<FieldValues, FieldValues>, { error: plainMessage }, { raw: true, mode: "sync" });
  // No fields or names: the errors come back by the body's paths, nested as react-hook-form nests them.
  const { errors } = await parse(body as FieldValues, undefined, { fields: {}, names: [], shouldUseNativeValidation: false });
  const issues: FoundIssue[] = errorList(errors).map((e) => ({ path: e.path, message: e.message, code: e.type }));
  const { fieldOf, words } = rules;
  return placeIssues(
    issues,
    (path) => (fieldOf ? fieldOf(path, values) : path || undefined),
    (message, issue) => words?.(issue, values) ?? message,
  ).errors;
}

/**
 * The form's resolver: `checkForm`, with the problems nested as react-hook-form keeps them. Lazy
 * rules that cannot be loaded (offline) let the form through: the API checks the same body, and
 * its issues are placed at the fields as ever.
 */
export function formResolver<V extends FieldValues, C = undefined>(rules: FormRules<V, C> | LazyRules<V, C>): Resolver<V, C, V> {
  return async (values, context): Promise<ResolverResult<V, V>> => {
    const loaded = "load" in rules ? await rules.load().catch(() => undefined) : rules;
    if (!loaded) return { values, errors: {} };
    const problems = await checkForm(loaded, values, context);
    return hasErrors(problems) ? { values: {}, errors: nestErrors<V>(problems) } : { values, errors: {} };
  };
}

/** A problem the API found with a value only it could judge (a taken username), held with that value. */
export type HeldProblem = { field: string; value: unknown; message: string };

/** `result` with each held problem whose field holds its value again (a problem the check found there first stays). */
export function withHeld<V extends FieldValues>(result: ResolverResult<V, V>, values: V, held: HeldProblem[]): ResolverResult<V, V> {
  const holding = held.filter((p) => get(values, p.field) === p.value);
  if (holding.length === 0) return result;
  const errors = { ...result.errors } as FormErrors<V>;
  for (const p of holding) if (!get(errors, p.field)) set(errors, p.field, { type: "server", message: p.message });
  return { values: {}, errors };
}
