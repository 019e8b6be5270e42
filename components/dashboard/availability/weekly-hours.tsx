"use client";

import { useController, useFieldArray, useFormContext } from "react-hook-form";
import { PlusIcon } from "@/components/ui/icons";
import { copyDay, dayName, MONDAY_FIRST, nextInterval, type AvailabilityDraft } from "@/lib/forms/availability";
import { CopyHoursMenu } from "./copy-hours-menu";
import { IntervalList } from "./interval-list";

/** What the week's rows need from the form around them. */
export type RowHelp = {
  /** Moves the focus to the element `selector` finds once the change is on screen (a row added or removed). */
  focusNext: (selector: string) => void;
  /** Says a change a screen reader cannot see happen (a copy to other days). */
  announce: (text: string) => void;
};

export const switchClass =
  "relative h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-slate-300 transition-colors before:absolute before:top-0.5 before:left-0.5 before:size-5 before:rounded-full before:bg-white before:shadow before:transition-transform checked:bg-blue-600 checked:before:translate-x-5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600";

const startOf = (day: number, row: number) => `[data-spot="days.${day}.intervals.${row}.startTime"]`;

/** Monday to Sunday, each switched on or off, with its intervals and its add and copy buttons. */
export function WeeklyHours(help: RowHelp) {
  return (
    <section aria-labelledby="weekly-hours" className="rounded-lg border border-slate-200 bg-white">
      <div className="border-b border-slate-200 p-4 sm:px-6">
        <h2 id="weekly-hours" className="text-lg font-semibold">
          Weekly hours
        </h2>
        <p className="text-sm text-slate-600">
          The hours you take bookings, every week. A day can have several intervals, such as a lunch break between two.
        </p>
      </div>
      <div className="divide-y divide-slate-100">
        {MONDAY_FIRST.map((day) => (
          <DayRow key={day} day={day} {...help} />
        ))}
      </div>
      <p className="border-t border-slate-200 px-4 py-3 text-sm text-slate-500 sm:px-6">
        An end of 00:00 (12:00 AM) means midnight, the end of the day.
      </p>
    </section>
  );
}

function DayRow({ day, focusNext, announce }: RowHelp & { day: number }) {
  const { control, getValues, setValue, clearErrors } = useFormContext<AvailabilityDraft>();
  const intervals = useFieldArray({ control, name: `days.${day}.intervals` });
  const {
    field: { ref: enabledRef, ...enabled },
  } = useController({ control, name: `days.${day}.enabled` });
  const name = dayName(day);
  const labelId = `day-${day}-label`;

  function toggle(on: boolean) {
    if (on && intervals.fields.length === 0) intervals.append(nextInterval([]), { shouldFocus: false });
    // A day switched off has no hours to check: what was said about them goes.
    if (!on) clearErrors(`days.${day}.intervals`);
    enabled.onChange(on);
  }

  function add() {
    const current = getValues(`days.${day}.intervals`);
    focusNext(startOf(day, current.length));
    intervals.append(nextInterval(current), { shouldFocus: false });
  }

  function remove(row: number) {
    const left = intervals.fields.length - 1;
    // The last interval gone, the day is off; the focus stays on that day.
    focusNext(left > 0 ? startOf(day, left - 1) : `#day-${day}`);
    intervals.remove(row);
    if (left === 0) enabled.onChange(false);
  }

  function copy(targets: number[]) {
    const next = copyDay(getValues(), day, targets);
    for (const target of targets) {
      if (target === day) continue;
      setValue(`days.${target}.enabled`, next.days[target]!.enabled);
      setValue(`days.${target}.intervals`, next.days[target]!.intervals);
    }
    const names = [...targets].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7)).map((t) => dayName(t));
    announce(`Copied ${name}'s hours to ${names.join(", ")}.`);
  }

  return (
    <div role="group" aria-labelledby={labelId} className="grid grid-cols-[1fr_auto] gap-x-2 gap-y-3 px-4 py-4 sm:grid-cols-[9.5rem_minmax(0,20rem)_1fr] sm:px-6">
      <div className="flex items-center gap-3 self-start sm:min-h-9">
        <input
          id={`day-${day}`}
          type="checkbox"
          role="switch"
          name={enabled.name}
          ref={enabledRef}
          checked={enabled.value}
          onChange={(e) => toggle(e.target.checked)}
          onBlur={enabled.onBlur}
          className={switchClass}
        />
        <label id={labelId} htmlFor={`day-${day}`} className="cursor-pointer font-medium text-slate-900">
          {name}
        </label>
      </div>
      <div className="col-span-2 sm:col-span-1 sm:col-start-2 sm:row-start-1">
        {enabled.value ? (
          <IntervalList context={name} base={`days.${day}.intervals`} rows={intervals.fields} onRemove={remove} />
        ) : (
          <p className="py-1.5 text-slate-500 sm:py-2">Unavailable</p>
        )}
      </div>
      <div className="col-start-2 row-start-1 flex items-start gap-1 sm:col-start-3">
        {enabled.value && (
          <>
            <button
              type="button"
              onClick={add}
              aria-label={`Add an interval to ${name}`}
              title="Add an interval"
              className="rounded-md p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600"
            >
              <PlusIcon className="size-4" />
            </button>
            <CopyHoursMenu day={day} onCopy={copy} />
          </>
        )}
      </div>
    </div>
  );
}
