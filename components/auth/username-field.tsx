"use client";

import { useWatch, type Control } from "react-hook-form";
import { FormField } from "@/components/ui/form-field";
import { inputClass } from "@/components/ui/field";
import type { RegisterValues } from "@/lib/forms/auth";

/** The username, lower-cased as it is typed, with the public page it makes. `onTyped`: the person has typed one of their own. */
export function UsernameField({ control, appUrl, onTyped }: { control: Control<RegisterValues>; appUrl: string; onTyped: () => void }) {
  const username = useWatch({ control, name: "username" });
  const hint = (
    <>
      3–40 lower-case letters, digits or hyphens, starting and ending with a letter or digit. Your page:{" "}
      <span className="break-all text-slate-700">
        {appUrl}/{username || "your-name"}
      </span>
    </>
  );
  return (
    <FormField control={control} name="username" label="Username" required hint={hint}>
      {(p, field) => (
        <input
          {...p}
          type="text"
          autoComplete="username"
          autoCapitalize="off"
          spellCheck={false}
          required
          maxLength={40}
          name={field.name}
          ref={field.ref}
          value={field.value}
          onBlur={field.onBlur}
          onChange={(e) => {
            field.onChange(e.target.value.toLowerCase());
            onTyped();
          }}
          className={inputClass}
        />
      )}
    </FormField>
  );
}
