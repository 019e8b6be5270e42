"use client";

import { useController, useFieldArray, type Control, type FieldPath } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { FieldMessage, useFieldError } from "@/components/ui/form-field";
import { inputClass } from "@/components/ui/field";
import { MAX_REMINDERS, newReminder, type EventTypeValues } from "@/lib/forms/event-type";

// Reminders before each booking (decisions §16): up to five, each an amount of minutes, hours or
// days before the start, to the guest, the host(s) or both. Sent by email; the guest is called
// too where calls are set up and they gave a phone number.

type Control_ = Control<EventTypeValues>;

/** The amount is a few digits: the dashboard's input, but narrow. */
const amountClass = inputClass.replace("w-full", "w-24");
const selectClass = "rounded-md border border-slate-300 bg-white px-2 py-2 text-sm aria-[invalid=true]:border-red-500";

function Select({ control, name, label, errorId, children }: { control: Control_; name: FieldPath<EventTypeValues>; label: string; errorId?: string; children: React.ReactNode }) {
  const {
    field: { ref, ...field },
    fieldState,
  } = useController({ control, name });
  return (
    <select
      name={field.name}
      ref={ref}
      aria-label={label}
      value={String(field.value)}
      onChange={(e) => field.onChange(e.target.value)}
      onBlur={field.onBlur}
      aria-invalid={Boolean(fieldState.error)}
      aria-describedby={fieldState.error ? errorId : undefined}
      className={selectClass}
    >
      {children}
    </select>
  );
}

function ReminderRow({ control, index: i, onRemove }: { control: Control_; index: number; onRemove: () => void }) {
  const path = `reminders.${i}` as const;
  const {
    field: { ref, ...amount },
    fieldState,
  } = useController({ control, name: `${path}.amount` });
  const toError = useFieldError(control, `${path}.to`);
  const error = fieldState.error?.message ?? toError;
  const errorId = `reminder-${i}-problem`;
  return (
    <li className="flex flex-col gap-1" aria-label={`Reminder ${i + 1}`}>
      <div className="flex flex-wrap items-center gap-2">
        <input
          name={amount.name}
          ref={ref}
          value={amount.value ?? ""}
          onChange={(e) => amount.onChange(e.target.value)}
          onBlur={amount.onBlur}
          type="number"
          inputMode="numeric"
          min={1}
          aria-label={`Reminder ${i + 1}: how long before`}
          aria-invalid={Boolean(fieldState.error)}
          aria-describedby={error ? errorId : undefined}
          className={amountClass}
        />
        <Select control={control} name={`${path}.unit`} label={`Reminder ${i + 1}: unit`}>
          <option value="minutes">minutes</option>
          <option value="hours">hours</option>
          <option value="days">days</option>
        </Select>
        <span className="text-sm text-slate-700">before, to</span>
        <Select control={control} name={`${path}.to`} label={`Reminder ${i + 1}: who gets it`} errorId={errorId}>
          <option value="guest">the guest</option>
          <option value="host">the host</option>
          <option value="both">both</option>
        </Select>
        <Button variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove reminder ${i + 1}`}>
          Remove
        </Button>
      </div>
      {error && <FieldMessage id={errorId}>{error}</FieldMessage>}
    </li>
  );
}

export function ReminderEditor({ control, className }: { control: Control_; className: string }) {
  const { fields, append, remove } = useFieldArray({ control, name: "reminders" });
  const listError = useFieldError(control, "reminders.root");
  return (
    <section className={className} aria-labelledby="reminders-heading">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="reminders-heading" className="text-lg font-semibold">
          Reminders
        </h2>
        <Button variant="secondary" size="sm" disabled={fields.length >= MAX_REMINDERS} onClick={() => append(newReminder(), { shouldFocus: false })}>
          Add a reminder
        </Button>
      </div>
      {listError && <FieldMessage>{listError}</FieldMessage>}
      {fields.length === 0 ? (
        <p className="text-sm text-slate-600">No reminders. Add up to {MAX_REMINDERS}, from 5 minutes to 7 days before each booking.</p>
      ) : (
        <>
          <ol className="flex flex-col gap-3">
            {fields.map((f, i) => (
              <ReminderRow key={f.id} control={control} index={i} onRemove={() => remove(i)} />
            ))}
          </ol>
          <p className="text-sm text-slate-500">Sent by email. Where phone calls are set up, the guest is also called if they gave a phone number.</p>
        </>
      )}
    </section>
  );
}
