"use client";

import { useState } from "react";
import type { Control, FieldPath, FieldValues } from "react-hook-form";
import { FormField } from "@/components/ui/form-field";
import { inputClass } from "@/components/ui/field";

/** A new account's password, with a button that shows what was typed (it is typed once, not twice). */
export function PasswordField<V extends FieldValues>({ control, name, label }: { control: Control<V>; name: FieldPath<V>; label: string }) {
  const [shown, setShown] = useState(false);
  return (
    <FormField control={control} name={name} label={label} required hint="8 to 128 characters.">
      {(p, field) => (
        <div className="relative">
          <input
            {...p}
            type={shown ? "text" : "password"}
            autoComplete="new-password"
            required
            minLength={8}
            maxLength={128}
            name={field.name}
            ref={field.ref}
            value={field.value}
            onBlur={field.onBlur}
            onChange={(e) => field.onChange(e.target.value)}
            className={`${inputClass} pr-20`}
          />
          <button
            type="button"
            aria-pressed={shown}
            onClick={() => setShown((s) => !s)}
            className="absolute inset-y-1 right-1 rounded px-3 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600"
          >
            {shown ? "Hide" : "Show"}
            <span className="sr-only"> password</span>
          </button>
        </div>
      )}
    </FormField>
  );
}
