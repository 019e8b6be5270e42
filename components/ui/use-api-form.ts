"use client";

import { useEffect, useMemo, useRef, type BaseSyntheticEvent } from "react";
import { useForm, useFormState, type DefaultValues, type FieldErrors as FormErrors, type FieldValues, type Path, type UseFormReturn } from "react-hook-form";
import { hasErrors, keepShown, placeIssues, type FieldErrors, type Issue } from "@/lib/forms/field-errors";
import { errorList, formResolver, nestErrors, withHeld, type FormRules, type HeldProblem, type LazyRules } from "@/lib/forms/resolver";

/**
 * The first field marked invalid, in the form's own order (top to bottom, as a person reads it);
 * `data-invalid` marks a control that cannot carry aria-invalid (a radio button).
 */
const firstInvalid = (root: HTMLElement) => root.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid]');

export type ApiForm<V extends FieldValues, C = undefined> = {
  form: UseFormReturn<V, C, V>;
  /** The <form>'s ref: the focus is looked for inside it. */
  formRef: React.RefObject<HTMLFormElement | null>;
  /** Every problem on screen, by field ("customQuestions.0.label"), in the form's order of discovery. */
  problems: FieldErrors;
  /** The submit handler: checks everything at once; with problems, shows them and focuses the first; else `valid`. */
  onSubmit: (valid: (values: V) => unknown, invalid?: () => void) => (event?: BaseSyntheticEvent) => Promise<void>;
  /** The API's 400 issues at their fields (`fieldOf` places a body path); returns those no field shows. */
  showServerIssues: (issues: Issue[], fieldOf?: (path: string) => string | undefined, reword?: (message: string, issue: Issue) => string) => Issue[];
  /**
   * One problem only the API could know ("This username is taken"), at its field. With
   * `whileValue`, it is about the value the field holds: it goes when the field changes, and is
   * said again whenever the field holds that value again (typed, filled in or set by the page).
   */
  showServerError: (field: Path<V>, message: string, options?: { whileValue?: boolean }) => void;
  /** Moves the focus to the first field with a problem once it is on screen (or, with none, to what `fallback` selects in the form). */
  focusFirstProblem: (fallback?: string) => void;
};

/**
 * Moves the focus to the first field marked invalid once the render that marks it is on screen
 * (or, with none, to what `fallback` selects in the form), when asked to.
 */
function useFirstProblemFocus(formRef: React.RefObject<HTMLFormElement | null>) {
  const pending = useRef<{ fallback?: string } | null>(null);
  useEffect(() => {
    if (!pending.current || !formRef.current) return;
    const { fallback } = pending.current;
    const target = firstInvalid(formRef.current) ?? (fallback ? formRef.current.querySelector<HTMLElement>(fallback) : null);
    if (!target) return;
    pending.current = null;
    target.focus();
  });
  return useMemo(
    () => ({
      request: (fallback?: string) => {
        pending.current = { fallback };
      },
      cancel: () => {
        pending.current = null;
      },
    }),
    [],
  );
}

/**
 * Starts loading lazy rules when the form is first focused or pressed (a button a click does not
 * focus, as in Safari), or at once when the focus is in it already (it came before hydration),
 * so that the first submit seldom waits for them.
 */
function useRulesLoadOnTouch<V, C>(formRef: React.RefObject<HTMLFormElement | null>, rules: FormRules<V, C> | LazyRules<V, C>) {
  useEffect(() => {
    if (!("load" in rules)) return;
    const start = () => {
      stop();
      // A failed load is tried again by the check itself (and, failing, leaves the check to the API).
      rules.load().catch(() => undefined);
    };
    const touched = (event: Event) => {
      if (event.target instanceof Node && formRef.current?.contains(event.target)) start();
    };
    // On the document: the form may come and go (a "sent" page and back) while the hook stays.
    const stop = () => {
      document.removeEventListener("focusin", touched);
      document.removeEventListener("pointerdown", touched);
    };
    if (formRef.current?.contains(document.activeElement)) {
      start();
      return;
    }
    document.addEventListener("focusin", touched);
    document.addEventListener("pointerdown", touched);
    return stop;
  }, [formRef, rules]);
}

/**
 * A form on react-hook-form (the dashboard's and the account pages'), checked with the API's own
 * schema (`rules`, see lib/forms/resolver.ts; lazy ones load on the form's first touch), the one
 * way every such form deals with problems:
 * - Submit checks everything and shows every problem at once, at its field; the focus goes to
 *   the first (in page order: a row added later or Sunday, index 0 of the week, shown last, is
 *   met where it stands), and nothing is sent.
 * - After a submit, each field is checked again as it changes (reValidateMode onChange): its
 *   problem goes as soon as it is right, or changes its words. A problem the browser found at
 *   another field goes too once it no longer holds (an overlap fixed at the other row). Nothing
 *   new appears while typing: new problems wait for the next submit (lib/forms/field-errors.ts).
 * - The API's issues (type "server") are placed at their fields with setError; they go when
 *   their field is edited, since only the API can say they are right. One about a value (a
 *   taken username) comes back with that value.
 */
export function useApiForm<V extends FieldValues, C = undefined>({
  rules,
  defaultValues,
  context,
}: {
  rules: FormRules<V, C> | LazyRules<V, C>;
  defaultValues: DefaultValues<V>;
  context?: C;
}): ApiForm<V, C> {
  const formRef = useRef<HTMLFormElement>(null);
  // Set by a submit: the resolver's next run is the submit's, which reports every problem.
  const checkingAll = useRef(false);
  const focus = useFirstProblemFocus(formRef);
  const resolve = useMemo(() => formResolver(rules), [rules]);
  useRulesLoadOnTouch(formRef, rules);
  // The API's problems with a value (showServerError's whileValue).
  const held = useRef<HeldProblem[]>([]);

  const form: UseFormReturn<V, C, V> = useForm<V, C, V>({
    defaultValues,
    context,
    mode: "onSubmit",
    reValidateMode: "onChange",
    // The focus goes to the first problem in page order (below), not in the order fields registered.
    shouldFocusError: false,
    resolver: async (values, ctx, options) => {
      const found = await resolve(values, ctx, options);
      if (checkingAll.current) {
        checkingAll.current = false;
        return withHeld(found, values, held.current);
      }
      const flat = Object.fromEntries(errorList(found.errors).map((e) => [e.path, e.message]));
      const kept = keepShown(flat, (path) => form.getFieldState(path as Path<V>).error !== undefined);
      return withHeld(hasErrors(kept) ? { values: {}, errors: nestErrors<V>(kept) } : { values, errors: {} }, values, held.current);
    },
  });
  const { errors } = useFormState({ control: form.control });
  const problems = useMemo(() => Object.fromEntries(errorList(errors as FormErrors).map((e) => [e.path, e.message])), [errors]);

  // A change rechecks the browser's problems at other fields: one that no longer holds goes.
  useEffect(
    () =>
      form.subscribe({
        formState: { values: true },
        callback: ({ name }) => {
          const others = errorList(form.formState.errors).filter((e) => e.type !== "server" && e.path !== name);
          if (others.length > 0) void form.trigger(others.map((e) => e.path as Path<V>));
        },
      }),
    [form],
  );

  const focusFirstProblem = focus.request;

  return {
    form,
    formRef,
    problems,
    focusFirstProblem,
    onSubmit: (valid, invalid) => async (event) => {
      checkingAll.current = true;
      focus.cancel();
      await form.handleSubmit(valid, () => {
        focusFirstProblem();
        invalid?.();
      })(event);
    },
    showServerIssues: (issues, fieldOf = (path) => path || undefined, reword) => {
      const placed = placeIssues(issues, fieldOf, reword);
      for (const [field, message] of Object.entries(placed.errors)) if (message) form.setError(field as Path<V>, { type: "server", message });
      if (Object.keys(placed.errors).length > 0) focusFirstProblem();
      return placed.unplaced;
    },
    showServerError: (field, message, options) => {
      if (options?.whileValue) held.current.push({ field, value: form.getValues(field), message });
      form.setError(field, { type: "server", message });
      focusFirstProblem();
    },
  };
}
