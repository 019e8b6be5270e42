"use client";

import type { ComponentPropsWithoutRef, ReactNode } from "react";
import { get, useController, useFormState, type Control, type ControllerRenderProps, type FieldPath, type FieldValues } from "react-hook-form";
import { Field, inputClass } from "./field";

// The dashboard's and the account pages' fields on react-hook-form: `Field` (label, hint, the
// problem at the field, wired with aria-invalid and aria-describedby) around a control bound to a
// form value. The guest's pages keep `Field` alone: react-hook-form is not in their bundles (the
// booking page's budget).

type Bound<V extends FieldValues> = {
  control: Control<V>;
  name: FieldPath<V>;
  label: ReactNode;
  hint?: ReactNode;
  required?: boolean;
};

type Wiring = { id: string; "aria-invalid": boolean; "aria-describedby": string | undefined };

/** Any control: `children` gets the ids to wire and react-hook-form's field (value, onChange, ref). */
export function FormField<V extends FieldValues, N extends FieldPath<V>>({
  control,
  name,
  label,
  hint,
  required,
  children,
}: Omit<Bound<V>, "name"> & { name: N; children: (props: Wiring, field: ControllerRenderProps<V, N>) => ReactNode }) {
  const { field, fieldState } = useController({ control, name });
  return (
    <Field label={label} hint={hint} required={required} error={fieldState.error?.message}>
      {(p) => children(p, field)}
    </Field>
  );
}

type InputProps = Omit<ComponentPropsWithoutRef<"input">, "name" | "value" | "defaultValue" | "onChange" | "id" | "required">;

/** A text (email, number, password, url…) input. `onText` hears each change after the form has it. */
export function TextField<V extends FieldValues>({ onText, className = inputClass, ...props }: Bound<V> & InputProps & { onText?: (text: string) => void }) {
  const { control, name, label, hint, required, ...input } = props;
  return (
    <FormField control={control} name={name} label={label} hint={hint} required={required}>
      {(p, field) => (
        <input
          {...p}
          {...input}
          required={required}
          name={field.name}
          ref={field.ref}
          value={field.value ?? ""}
          onBlur={field.onBlur}
          onChange={(e) => {
            field.onChange(e.target.value);
            onText?.(e.target.value);
          }}
          className={className}
        />
      )}
    </FormField>
  );
}

type TextAreaProps = Omit<ComponentPropsWithoutRef<"textarea">, "name" | "value" | "defaultValue" | "onChange" | "id" | "required">;

export function TextAreaField<V extends FieldValues>(props: Bound<V> & TextAreaProps) {
  const { control, name, label, hint, required, className = inputClass, ...input } = props;
  return (
    <FormField control={control} name={name} label={label} hint={hint} required={required}>
      {(p, field) => (
        <textarea
          {...p}
          {...input}
          required={required}
          name={field.name}
          ref={field.ref}
          value={field.value ?? ""}
          onBlur={field.onBlur}
          onChange={(e) => field.onChange(e.target.value)}
          className={className}
        />
      )}
    </FormField>
  );
}

/** The problem at `name` (a field, or a group such as a fieldset or a list's root), if any. */
export function useFieldError<V extends FieldValues>(control: Control<V>, name: string): string | undefined {
  const { errors } = useFormState({ control, name: name as FieldPath<V> });
  const error = get(errors, name) as { message?: unknown } | undefined;
  return typeof error?.message === "string" ? error.message : undefined;
}

/** A problem said below a group of controls (a fieldset), with the id the group points at. */
export function FieldMessage({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} className="text-sm text-red-700">
      {children}
    </p>
  );
}
