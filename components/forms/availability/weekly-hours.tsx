"use client";

import { PlusIcon } from "@/components/ui/icons";
import { dayName, MONDAY_FIRST, type DayDraft, type Problems, type Span } from "@/lib/availability-draft";
import { CopyHoursMenu } from "./copy-hours-menu";
import { IntervalList } from "./interval-list";

export type WeeklyActions = {
  toggle: (day: number, on: boolean) => void;
  add: (day: number) => void;
  change: (day: number, key: string, change: Partial<Span>) => void;
  remove: (day: number, key: string) => void;
  copy: (day: number, targets: number[]) => void;
};

export const switchClass =
  "relative h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-slate-300 transition-colors before:absolute before:top-0.5 before:left-0.5 before:size-5 before:rounded-full before:bg-white before:shadow before:transition-transform checked:bg-blue-600 checked:before:translate-x-5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600";

/** Monday to Sunday, each switched on or off, with its intervals and its add and copy buttons. */
export function WeeklyHours({ days, problems, actions }: { days: DayDraft[]; problems: Problems; actions: WeeklyActions }) {
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
          <DayRow key={day} day={day} hours={days[day]!} problems={problems} actions={actions} />
        ))}
      </div>
      <p className="border-t border-slate-200 px-4 py-3 text-sm text-slate-500 sm:px-6">
        An end of 00:00 (12:00 AM) means midnight, the end of the day.
      </p>
    </section>
  );
}

function DayRow({ day, hours, problems, actions }: { day: number; hours: DayDraft; problems: Problems; actions: WeeklyActions }) {
  const name = dayName(day);
  const labelId = `day-${day}-label`;
  return (
    <div role="group" aria-labelledby={labelId} className="grid grid-cols-[1fr_auto] gap-x-2 gap-y-3 px-4 py-4 sm:grid-cols-[9.5rem_minmax(0,20rem)_1fr] sm:px-6">
      <div className="flex items-center gap-3 self-start sm:min-h-9">
        <input
          id={`day-${day}`}
          type="checkbox"
          role="switch"
          checked={hours.enabled}
          onChange={(e) => actions.toggle(day, e.target.checked)}
          className={switchClass}
        />
        <label id={labelId} htmlFor={`day-${day}`} className="cursor-pointer font-medium text-slate-900">
          {name}
        </label>
      </div>
      <div className="col-span-2 sm:col-span-1 sm:col-start-2 sm:row-start-1">
        {hours.enabled ? (
          <IntervalList
            context={name}
            intervals={hours.intervals}
            problems={problems}
            onChange={(key, change) => actions.change(day, key, change)}
            onRemove={(key) => actions.remove(day, key)}
          />
        ) : (
          <p className="py-1.5 text-slate-500 sm:py-2">Unavailable</p>
        )}
      </div>
      <div className="col-start-2 row-start-1 flex items-start gap-1 sm:col-start-3">
        {hours.enabled && (
          <>
            <button
              type="button"
              onClick={() => actions.add(day)}
              aria-label={`Add an interval to ${name}`}
              title="Add an interval"
              className="rounded-md p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600"
            >
              <PlusIcon className="size-4" />
            </button>
            <CopyHoursMenu day={day} onCopy={(targets) => actions.copy(day, targets)} />
          </>
        )}
      </div>
    </div>
  );
}
