"use client";

import { DateTime } from "luxon";
import { useController, useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { PlusIcon, TrashIcon } from "@/components/ui/icons";
import { nextInterval, weeklyHoursOf, type AvailabilityDraft, type Span } from "@/lib/forms/availability";
import { IntervalList } from "./interval-list";
import type { RowHelp } from "./weekly-hours";

/** "Friday, March 12, 2027" for a YYYY-MM-DD date (the page is in English, whatever the browser's locale). */
export function longDate(date: string): string {
  const d = DateTime.fromISO(date, { locale: "en-US" });
  return d.isValid ? d.toFormat("cccc, LLLL d, yyyy") : date;
}

// An override switched to "available" starts from its weekday's weekly hours, or 09:00–17:00.
function startingHours(d: AvailabilityDraft, date: string): Span[] {
  const weekly = date ? weeklyHoursOf(d, date) : [];
  return weekly.length > 0 ? weekly : [nextInterval([])];
}

/** Dates whose hours differ from the week's: closed all day, or open at their own intervals. */
export function DateOverrides({
  today,
  focusNext,
}: {
  /** Today in the host's timezone, YYYY-MM-DD: earlier overrides are marked as past. */
  today: string;
  focusNext: RowHelp["focusNext"];
}) {
  const { control } = useFormContext<AvailabilityDraft>();
  const overrides = useFieldArray({ control, name: "overrides" });
  return (
    <section aria-labelledby="date-overrides" className="rounded-lg border border-slate-200 bg-white">
      <div className="border-b border-slate-200 p-4 sm:px-6">
        <h2 id="date-overrides" className="text-lg font-semibold">
          Date overrides
        </h2>
        <p className="text-sm text-slate-600">Dates that differ from your weekly hours: a day off, or a day with other hours.</p>
      </div>
      {overrides.fields.length === 0 ? (
        <p className="px-4 py-4 text-slate-500 sm:px-6">No overrides: every date follows your weekly hours.</p>
      ) : (
        <div className="divide-y divide-slate-100">
          {overrides.fields.map((o, index) => (
            <OverrideRow
              key={o.id}
              index={index}
              today={today}
              focusNext={focusNext}
              onRemove={() => {
                focusNext("#add-override");
                overrides.remove(index);
              }}
            />
          ))}
        </div>
      )}
      <div className="border-t border-slate-200 px-4 py-3 sm:px-6">
        <Button
          id="add-override"
          variant="secondary"
          size="sm"
          onClick={() => {
            focusNext(`[data-spot="overrides.${overrides.fields.length}.date"]`);
            overrides.append({ date: "", available: false, intervals: [] }, { shouldFocus: false });
          }}
        >
          <PlusIcon className="size-4" />
          Add a date override
        </Button>
      </div>
    </section>
  );
}

function OverrideRow({ index: o, today, focusNext, onRemove }: { index: number; today: string; focusNext: RowHelp["focusNext"]; onRemove: () => void }) {
  const { control, getValues, clearErrors } = useFormContext<AvailabilityDraft>();
  const date = useWatch({ control, name: `overrides.${o}.date` });
  const intervals = useFieldArray({ control, name: `overrides.${o}.intervals` });
  const {
    field: { ref: availableRef, ...available },
    fieldState,
  } = useController({ control, name: `overrides.${o}.available` });
  const title = date ? longDate(date) : "New date override";
  const titleId = `override-${o}-title`;
  // "Add hours, or mark the day closed." is said at the choice of hours.
  const intervalsProblem = fieldState.error?.message;
  const problemId = `override-${o}-intervals-problem`;
  const past = Boolean(date) && date < today;
  const startOf = (row: number) => `[data-spot="overrides.${o}.intervals.${row}.startTime"]`;

  function setAvailable(on: boolean) {
    if (on && intervals.fields.length === 0) intervals.replace(startingHours(getValues(), date));
    if (!on) clearErrors(`overrides.${o}.intervals`);
    available.onChange(on);
  }

  return (
    <div role="group" aria-labelledby={titleId} className="flex flex-col gap-4 px-4 py-4 sm:px-6">
      <div className="flex items-start justify-between gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={titleId} className="font-medium text-slate-900">
            {title}
          </h3>
          {past && <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">Past date</span>}
        </div>
        <button
          type="button"
          onClick={onRemove}
          aria-label={`Remove the override for ${date ? title : "the new date"}`}
          title="Remove this override"
          className="-mt-1 rounded-md p-2 text-slate-500 hover:bg-slate-100 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          <TrashIcon className="size-4" />
        </button>
      </div>
      <div className="flex flex-col gap-4 sm:flex-row sm:gap-8">
        <div className="sm:w-48">
          <TextField control={control} name={`overrides.${o}.date`} label="Date" type="date" data-spot={`overrides.${o}.date`} />
        </div>
        <fieldset className="flex min-w-0 flex-1 flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-800">Hours on this date</legend>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name={`override-${o}-hours`}
              checked={!available.value}
              onChange={() => setAvailable(false)}
              className="size-4 accent-blue-600"
            />
            Closed all day
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name={`override-${o}-hours`}
              ref={availableRef}
              data-spot={available.name}
              checked={available.value}
              onChange={() => setAvailable(true)}
              onBlur={available.onBlur}
              // A radio takes no aria-invalid: data-invalid lets the focus find it as the field to fix.
              data-invalid={intervalsProblem ? "" : undefined}
              aria-describedby={intervalsProblem ? problemId : undefined}
              className="size-4 accent-blue-600"
            />
            Available at these hours
          </label>
          {available.value && (
            <div className="mt-1 flex flex-col gap-2 sm:pl-6">
              <IntervalList
                context={title}
                base={`overrides.${o}.intervals`}
                rows={intervals.fields}
                onRemove={(row) => {
                  const left = intervals.fields.length - 1;
                  focusNext(left > 0 ? startOf(left - 1) : `[data-spot="${available.name}"]`);
                  intervals.remove(row);
                }}
              />
              <div>
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => {
                    const current = getValues(`overrides.${o}.intervals`);
                    focusNext(startOf(current.length));
                    intervals.append(nextInterval(current), { shouldFocus: false });
                  }}
                  aria-label={`Add an interval to ${title}`}
                >
                  <PlusIcon className="size-4" />
                  Add an interval
                </Button>
              </div>
            </div>
          )}
          {intervalsProblem && (
            <p id={problemId} className="text-sm text-red-700">
              {intervalsProblem}
            </p>
          )}
        </fieldset>
      </div>
    </div>
  );
}
