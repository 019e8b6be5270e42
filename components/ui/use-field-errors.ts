import { useState, type RefObject } from "react";
import { hasErrors, noErrors, reviseErrors, type FieldErrors, type ShownErrors } from "@/lib/forms/field-errors";
import { useFocusAfterRender } from "./use-focus-after-render";

/** The first field marked invalid, in the form's own order (top to bottom, as a person reads it). */
const firstInvalid = (root: HTMLElement) => root.querySelector<HTMLElement>('[aria-invalid="true"]');

/**
 * A form's problems by field (see lib/forms/field-errors.ts). `show` puts them all on screen at
 * once and moves the focus to the first field with one; `edited` takes a field's problem away as
 * soon as the browser's check passes there. `formRef` is the form's (the focus is looked for inside it).
 */
export function useFieldErrors<K extends string = string>(
  formRef: RefObject<HTMLElement | null>,
  find: (root: HTMLElement, errors: FieldErrors<K>) => HTMLElement | null = firstInvalid,
) {
  const [shown, setShown] = useState<ShownErrors<K>>(noErrors);
  const focusSoon = useFocusAfterRender();

  /** Shows the browser's problems (`local`) and the API's (`server`), replacing those shown before. */
  function show(local: FieldErrors<K>, server: FieldErrors<K> = {}) {
    const errors = { ...local, ...server };
    setShown({ errors, fromServer: Object.keys(server) as K[] });
    if (hasErrors(errors)) focusSoon(() => (formRef.current ? find(formRef.current, errors) : null));
  }

  /** After an edit: `local` is the browser's check of the form as it now is; `touched` the fields the edit changed. */
  function edited(local: FieldErrors<K>, touched: K[] | ((key: K) => boolean)) {
    const isTouched = typeof touched === "function" ? touched : (key: K) => touched.includes(key);
    setShown((s) => reviseErrors(s, local, isTouched));
  }

  return { errors: shown.errors, show, edited, clear: () => setShown(noErrors<K>()) };
}
