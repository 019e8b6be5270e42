"use client";

import { useQuery } from "@tanstack/react-query";
import { useController, type Control } from "react-hook-form";
import { FormField, TextField } from "@/components/ui/form-field";
import { inputClass } from "@/components/ui/field";
import { schedulesQuery } from "@/lib/browser/api-client/availability";
import type { EventTypeValues } from "@/lib/forms/event-type";
import { OWNER_WORDS, type EditorOwner } from "./owner";

// The event type's booking rules (decisions §16): whether new bookings wait for the host's
// confirmation, how many it takes a day and a week per host, and its own notice and window
// (empty: the host's, set on the availability page).

const numberInput = { type: "number", inputMode: "numeric", step: 1 } as const;

function ConfirmationBox({ control }: { control: Control<EventTypeValues> }) {
  const {
    field: { ref, ...field },
  } = useController({ control, name: "requiresConfirmation" });
  return (
    <div className="flex flex-col gap-1">
      <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          name={field.name}
          ref={ref}
          checked={field.value}
          onChange={(e) => field.onChange(e.target.checked)}
          onBlur={field.onBlur}
          aria-describedby="requires-confirmation-hint"
          className="h-4 w-4"
        />
        Requires confirmation
      </label>
      <p id="requires-confirmation-hint" className="text-sm text-slate-500">
        New bookings are requests: they hold the time until you confirm or decline them.
      </p>
    </div>
  );
}

/** Which of the host's schedules (Availability page) the event type offers; the default when left so. */
function ScheduleSelect({ control }: { control: Control<EventTypeValues> }) {
  const schedules = useQuery(schedulesQuery());
  const list = schedules.data ?? [];
  return (
    <FormField control={control} name="scheduleId" label="Hours from" hint="Your schedules are on the Availability page.">
      {(p, field) => (
        <select {...p} name={field.name} ref={field.ref} value={field.value} onBlur={field.onBlur} onChange={(e) => field.onChange(e.target.value)} className={inputClass}>
          <option value="">{list.find((s) => s.isDefault)?.name ?? "Working hours"} (your default)</option>
          {list
            .filter((s) => !s.isDefault)
            .map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          {/* A stored choice the list has not brought yet still shows as chosen. */}
          {field.value && !list.some((s) => s.id === field.value) && <option value={field.value}>{schedules.isPending ? "Loading…" : "A schedule"}</option>}
        </select>
      )}
    </FormField>
  );
}

export function BookingRulesSection({ control, owner, className }: { control: Control<EventTypeValues>; owner: EditorOwner["kind"]; className: string }) {
  const { ownSetting, ownPlaceholder, dayLimitHint, weekLimitHint } = OWNER_WORDS[owner];
  return (
    <section className={className}>
      <h2 className="text-lg font-semibold">Booking rules</h2>
      <ConfirmationBox control={control} />
      {/* The host's own only: a team event type has no schedule of its own, each host's default decides (decisions §15). */}
      {owner === "me" && <ScheduleSelect control={control} />}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField control={control} name="limits.perDay" label="Most bookings a day" hint={dayLimitHint} {...numberInput} min={1} max={100} placeholder="No limit" />
        <TextField control={control} name="limits.perWeek" label="Most bookings a week" hint={weekLimitHint} {...numberInput} min={1} max={100} placeholder="No limit" />
        <TextField control={control} name="minNoticeHours" label="Minimum notice (hours)" hint={`Empty: ${ownSetting}.`} {...numberInput} min={0} max={8760} placeholder={ownPlaceholder} />
        <TextField control={control} name="maxAdvanceDays" label="Bookable up to (days ahead)" hint={`Empty: ${ownSetting}.`} {...numberInput} min={1} max={730} placeholder={ownPlaceholder} />
      </div>
    </section>
  );
}
