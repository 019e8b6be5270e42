"use client";

import { useState } from "react";
import { useWatch, type UseFormReturn } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { followDuration, followUpParts } from "@/lib/forms/follow-duration";
import type { EventTypeValues } from "@/lib/forms/event-type";

/**
 * Under the duration: when the length changes and the link, title or description still say a
 * length ("/30min"), an offer to update them. Only on the host's click: the link may be shared.
 */
export function DurationFollowUp({ form, savedMinutes }: { form: UseFormReturn<EventTypeValues, undefined, EventTypeValues>; savedMinutes: number }) {
  const [slug, title, description, durationMinutes] = useWatch({ control: form.control, name: ["slug", "title", "description", "durationMinutes"] });
  // "Keep them" holds for the length it was said to; another length asks again.
  const [keptFor, setKeptFor] = useState<string | null>(null);
  const offer = followDuration({ slug, title, description, durationMinutes }, savedMinutes);
  const show = offer && keptFor !== durationMinutes;

  function update() {
    if (!offer) return;
    for (const key of ["slug", "title", "description"] as const) {
      const value = offer[key];
      if (value !== undefined) form.setValue(key, value, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    }
  }

  return (
    <div aria-live="polite">
      {show && (
        <div className="mt-2 flex flex-col gap-2 rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-950">
          <p>
            Update {followUpParts(offer)} to match {offer.minutes} minutes?
            {offer.slug && ` Links to /${slug.trim()} you have already shared will stop working.`}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="secondary" onClick={update}>
              Update to {offer.minutes} minutes
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setKeptFor(durationMinutes)}>
              Keep them
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
