"use client";

import { useState } from "react";
import type { UseFormReturn } from "react-hook-form";
import { TextAreaField, TextField } from "@/components/ui/form-field";
import type { EventTypeValues } from "@/lib/forms/event-type";
import { slugify } from "@/lib/slugify";
import { LocationField } from "./location-field";
import { OWNER_WORDS, type EditorOwner } from "./owner";

/** The event type as guests see it: its title, link, description, place and colour. */
export function WhatGuestsBook({
  form,
  owner,
  isNew,
  className,
}: {
  form: UseFormReturn<EventTypeValues, undefined, EventTypeValues>;
  owner: EditorOwner["kind"];
  isNew: boolean;
  className: string;
}) {
  const { control } = form;
  // A stored event type's link may be shared already: only a new one's follows the title.
  const [slugEdited, setSlugEdited] = useState(!isNew);
  return (
    <section className={className}>
      <h2 className="text-lg font-semibold">What guests book</h2>
      <TextField
        control={control}
        name="title"
        label="Title"
        required
        maxLength={200}
        // Until the host types a link of their own, the link follows the title.
        onText={(title) => !slugEdited && form.setValue("slug", slugify(title), { shouldValidate: true })}
      />
      <TextField
        control={control}
        name="slug"
        label="Link"
        required
        maxLength={64}
        hint={`Lower-case letters and digits, separated by single hyphens: the last part of ${OWNER_WORDS[owner].linkOf} booking link.`}
        onText={() => setSlugEdited(true)}
      />
      <TextAreaField control={control} name="description" label="Description" hint="Shown on the booking page." rows={3} maxLength={5000} />
      <LocationField control={control} />
      <TextField control={control} name="color" label="Colour" type="color" className="h-10 w-16 rounded border border-slate-300" />
    </section>
  );
}
