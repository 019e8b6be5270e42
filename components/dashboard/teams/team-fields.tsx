"use client";

import { useState } from "react";
import { useWatch, type UseFormReturn } from "react-hook-form";
import { TextField } from "@/components/ui/form-field";
import type { TeamValues } from "@/lib/forms/team";
import { slugify } from "@/lib/slugify";
import { teamPageLink } from "./team-link";

/** A team's name and link (slug), as the create and the rename forms ask for them. */
export function TeamFields({ form, appUrl, followName }: { form: UseFormReturn<TeamValues, undefined, TeamValues>; appUrl: string; followName: boolean }) {
  const { control } = form;
  const slug = useWatch({ control, name: "slug" });
  // Until the owner types a link of their own, a new team's link follows its name.
  const [slugEdited, setSlugEdited] = useState(!followName);
  return (
    <>
      <TextField
        control={control}
        name="name"
        label="Team name"
        required
        maxLength={100}
        autoComplete="off"
        onText={(name) => !slugEdited && form.setValue("slug", slugify(name, 40), { shouldValidate: form.formState.isSubmitted })}
      />
      <TextField
        control={control}
        name="slug"
        label="Team link"
        required
        maxLength={40}
        autoCapitalize="none"
        autoComplete="off"
        spellCheck={false}
        hint={`3–40 lower-case letters, digits or hyphens. Guests book the team at ${teamPageLink(appUrl, slug.trim() || "…")}`}
        onText={() => setSlugEdited(true)}
      />
    </>
  );
}
