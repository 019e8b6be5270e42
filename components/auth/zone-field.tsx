"use client";

import { useEffect } from "react";
import type { UseFormReturn } from "react-hook-form";
import { FormField } from "@/components/ui/form-field";
import { TimezoneSelect } from "@/components/ui/timezone-select";
import type { RegisterContext, RegisterValues } from "@/lib/forms/auth";
import { localTimeZone } from "@/lib/time/zones";

/** The new account's zone: the browser's to begin with, or one the person picks. */
export function ZoneField({ form }: { form: UseFormReturn<RegisterValues, RegisterContext, RegisterValues> }) {
  // The browser's zone is known only in the browser: the server renders none, then it appears.
  useEffect(() => {
    if (form.getValues("timezone") === "") form.setValue("timezone", localTimeZone());
  }, [form]);
  return (
    <FormField control={form.control} name="timezone" label="Timezone" required hint="Your working hours are in this timezone. We guessed it from your browser.">
      {(p, field) => <TimezoneSelect {...p} name={field.name} value={field.value} onChange={field.onChange} />}
    </FormField>
  );
}
