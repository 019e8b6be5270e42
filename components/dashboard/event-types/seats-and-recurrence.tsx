"use client";

import { useId } from "react";
import { useController, useWatch, type Control, type FieldPath } from "react-hook-form";
import { FormField, TextField } from "@/components/ui/form-field";
import { inputClass } from "@/components/ui/field";
import { canHaveSeats, canRecur, NO_RECURRENCE_REASON, NO_SEATS_REASON, type EventTypeValues } from "@/lib/forms/event-type";
import type { EditorOwner } from "./owner";

// Group sessions and recurring bookings (decisions §19): a switch each, and its settings once on.
// A type that cannot have one (round robin: no seats; collective: no series) says why instead.

type Control_ = Control<EventTypeValues>;
const numberInput = { type: "number", inputMode: "numeric", step: 1 } as const;

/** A switch (a checkbox) with its hint, and the problem of the whole setting under it. */
export function Toggle({ control, name, label, hint, disabled }: { control: Control_; name: FieldPath<EventTypeValues>; label: string; hint: string; disabled?: boolean }) {
  const id = useId();
  const {
    field: { ref, ...field },
    fieldState,
  } = useController({ control, name });
  const problemId = `${id}-problem`;
  return (
    <div className="flex flex-col gap-1">
      <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          name={field.name}
          ref={ref}
          checked={Boolean(field.value)}
          onChange={(e) => field.onChange(e.target.checked)}
          onBlur={field.onBlur}
          disabled={disabled}
          aria-invalid={Boolean(fieldState.error)}
          aria-describedby={[`${id}-hint`, fieldState.error ? problemId : ""].filter(Boolean).join(" ")}
          className="h-4 w-4"
        />
        {label}
      </label>
      <p id={`${id}-hint`} className="text-sm text-slate-500">
        {hint}
      </p>
      {fieldState.error && (
        <p id={problemId} className="text-sm text-red-700">
          {fieldState.error.message}
        </p>
      )}
    </div>
  );
}

function Unavailable({ children }: { children: string }) {
  return <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-600">{children}</p>;
}

export function GroupSessionSection({ control, owner, className }: { control: Control_; owner: EditorOwner["kind"]; className: string }) {
  const schedulingType = useWatch({ control, name: "schedulingType" });
  const on = useWatch({ control, name: "seats.on" });
  const allowed = canHaveSeats(owner, owner === "team" ? schedulingType : "");
  return (
    <section className={className} aria-labelledby="group-session-heading">
      <h2 id="group-session-heading" className="text-lg font-semibold">
        Group session
      </h2>
      {!allowed ? (
        <Unavailable>{NO_SEATS_REASON}</Unavailable>
      ) : (
        <>
          <Toggle control={control} name="seats.on" label="Several guests per time" hint="Each guest books a seat of their own: classes, webinars, group tours." />
          {on && (
            <div className="flex flex-col gap-4">
              <div className="sm:max-w-xs">
                <TextField control={control} name="seats.max" label="Max guests per time" hint="From 2 to 1000." {...numberInput} min={2} max={1000} />
              </div>
              <Toggle
                control={control}
                name="seats.showRemaining"
                label="Show guests how many seats are left"
                hint={'The booking page says "3 of 10 seats left".'}
              />
            </div>
          )}
        </>
      )}
    </section>
  );
}

export function RecurringSection({ control, owner, className }: { control: Control_; owner: EditorOwner["kind"]; className: string }) {
  const schedulingType = useWatch({ control, name: "schedulingType" });
  const on = useWatch({ control, name: "recurrence.on" });
  const allowed = canRecur(owner, owner === "team" ? schedulingType : "");
  return (
    <section className={className} aria-labelledby="recurring-heading">
      <h2 id="recurring-heading" className="text-lg font-semibold">
        Recurring
      </h2>
      {!allowed ? (
        <Unavailable>{NO_RECURRENCE_REASON}</Unavailable>
      ) : (
        <>
          <Toggle control={control} name="recurrence.on" label="Guests can book a series" hint="Regular sessions at the same time: coaching, therapy, tutoring." />
          {on && (
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              <FormField control={control} name="recurrence.everyWeeks" label="Repeats every">
                {(p, field) => (
                  <select {...p} name={field.name} ref={field.ref} value={field.value} onBlur={field.onBlur} onChange={(e) => field.onChange(e.target.value)} className={inputClass}>
                    <option value="1">Week</option>
                    <option value="2">2 weeks</option>
                    <option value="3">3 weeks</option>
                    <option value="4">4 weeks</option>
                  </select>
                )}
              </FormField>
              <TextField control={control} name="recurrence.maxOccurrences" label="Up to (sessions)" hint="A guest books 2 to this many at once (at most 24)." {...numberInput} min={2} max={24} />
            </div>
          )}
        </>
      )}
    </section>
  );
}
