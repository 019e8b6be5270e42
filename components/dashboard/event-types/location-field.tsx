"use client";

import { useState } from "react";
import { useController, type Control, type FieldPath, type FieldValues } from "react-hook-form";
import { TextField } from "@/components/ui/form-field";
import { awaitsMeetingLink, VIDEO_LOCATION } from "@/lib/meeting-location";

/**
 * Where the meeting happens: a place of the host's own (address, phone, a standing link), or a
 * video call whose link is made for each booking (decisions §17: the location `video`).
 */
export function LocationField<V extends FieldValues>({ control }: { control: Control<V> }) {
  const name = "location" as FieldPath<V>;
  const { field } = useController({ control, name });
  const video = awaitsMeetingLink(String(field.value ?? ""));
  // What the host typed stays at hand while the video choice is on, in case they turn it off.
  const [typed, setTyped] = useState<string>(video ? "" : String(field.value ?? ""));
  return (
    <div className="flex flex-col gap-3">
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-1 h-4 w-4"
          checked={video}
          onChange={(e) => {
            if (e.target.checked) {
              setTyped(String(field.value ?? ""));
              field.onChange(VIDEO_LOCATION);
            } else field.onChange(typed);
          }}
        />
        <span>
          <span className="font-medium">Video call (link made for each booking)</span>
          <span className="block text-slate-600">Your Google or Microsoft calendar makes a Meet or Teams link, else the service&apos;s own video link; the guest gets it by email.</span>
        </span>
      </label>
      {!video && <TextField control={control} name={name} label="Location" hint="An address, a phone number or a video link; sent with the confirmation." maxLength={500} />}
    </div>
  );
}
