// The dashboard forms' one way with problems (event type, availability, settings, webhooks,
// calendars): every problem at once, each at its field, checked in the browser first (with the
// API's own schema, see ./resolver.ts) and then by the API, whose issues ({path, message}) are
// placed at the fields they name. An edit clears a field's problem as soon as the field is right
// again; this module holds the rules, components/ui/use-api-form.ts applies them to a form.

export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

export const hasErrors = (errors: FieldErrors): boolean => Object.values(errors).some((m) => m !== undefined);

/**
 * What a check while typing may show: a problem at a field that shows one now stays (in its
 * current words) while it still holds, and goes once it does not; nothing new appears while
 * typing: new problems wait for the next submit.
 */
export function keepShown<K extends string>(found: FieldErrors<K>, isShown: (key: K) => boolean): FieldErrors<K> {
  const kept: FieldErrors<K> = {};
  for (const key of Object.keys(found) as K[]) if (found[key] !== undefined && isShown(key)) kept[key] = found[key];
  return kept;
}

export type Issue = { path: string; message: string };
/** An issue as a check found it: its zod code too, when the check was ours (the words may depend on it). */
export type FoundIssue = Issue & { code?: string };

/**
 * The API's issues at the fields that show them. `fieldOf` names the field of an issue path, or
 * undefined when no field shows it: those issues come back in `unplaced`, for the form's summary.
 * The first issue at a field wins (it is the one the person meets first).
 */
export function placeIssues<K extends string, I extends Issue = Issue>(
  issues: I[],
  fieldOf: (path: string) => K | undefined,
  reword: (message: string, issue: I) => string = (m) => m,
): { errors: FieldErrors<K>; unplaced: Issue[] } {
  const errors: FieldErrors<K> = {};
  const unplaced: Issue[] = [];
  for (const issue of issues) {
    const field = fieldOf(issue.path);
    const message = reword(issue.message, issue);
    if (field === undefined) unplaced.push({ path: issue.path, message });
    else if (errors[field] === undefined) errors[field] = message;
  }
  return { errors, unplaced };
}

/** "Your event type was not saved: 2 fields need a change." (`what` is the sentence before the colon.) */
export function notSavedSentence(what: string, count: number): string {
  return `${what}: ${count === 1 ? "one field needs" : `${count} fields need`} a change.`;
}
