"use client";

import { DateTime } from "luxon";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { PlusIcon, TrashIcon } from "@/components/ui/icons";
import type { OverrideDraft, Problems, Span } from "@/lib/availability-draft";
import { IntervalList } from "./interval-list";

export type OverrideActions = {
  add: () => void;
  setDate: (key: string, date: string) => void;
  setAvailable: (key: string, available: boolean) => void;
  addInterval: (key: string) => void;
  changeInterval: (key: string, interval: string, change: Partial<Span>) => void;
  removeInterval: (key: string, interval: string) => void;
  remove: (key: string) => void;
};

/** "Friday, March 12, 2027" for a YYYY-MM-DD date (the page is in English, whatever the browser's locale). */
export function longDate(date: string): string {
  const d = DateTime.fromISO(date, { locale: "en-US" });
  return d.isValid ? d.toFormat("cccc, LLLL d, yyyy") : date;
}

/** Dates whose hours differ from the week's: closed all day, or open at their own intervals. */
export function DateOverrides({
  overrides,
  problems,
  today,
  actions,
}: {
  overrides: OverrideDraft[];
  problems: Problems;
  /** Today in the host's timezone, YYYY-MM-DD: earlier overrides are marked as past. */
  today: string;
  actions: OverrideActions;
}) {
  return (
    <section aria-labelledby="date-overrides" className="rounded-lg border border-slate-200 bg-white">
      <div className="border-b border-slate-200 p-4 sm:px-6">
        <h2 id="date-overrides" className="text-lg font-semibold">
          Date overrides
        </h2>
        <p className="text-sm text-slate-600">Dates that differ from your weekly hours: a day off, or a day with other hours.</p>
      </div>
      {overrides.length === 0 ? (
        <p className="px-4 py-4 text-slate-500 sm:px-6">No overrides: every date follows your weekly hours.</p>
      ) : (
        <div className="divide-y divide-slate-100">
          {overrides.map((o) => (
            <OverrideRow key={o.key} override={o} problems={problems} today={today} actions={actions} />
          ))}
        </div>
      )}
      <div className="border-t border-slate-200 px-4 py-3 sm:px-6">
        <Button id="add-override" variant="secondary" size="sm" onClick={actions.add}>
          <PlusIcon className="size-4" />
          Add a date override
        </Button>
      </div>
    </section>
  );
}

function OverrideRow({ override: o, problems, today, actions }: { override: OverrideDraft; problems: Problems; today: string; actions: OverrideActions }) {
  const title = o.date ? longDate(o.date) : "New date override";
  const titleId = `override-${o.key}-title`;
  const intervalsProblem = problems[`override:${o.key}:intervals`];
  const past = Boolean(o.date) && o.date < today;
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
          onClick={() => actions.remove(o.key)}
          aria-label={`Remove the override for ${o.date ? title : "the new date"}`}
          title="Remove this override"
          className="-mt-1 rounded-md p-2 text-slate-500 hover:bg-slate-100 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          <TrashIcon className="size-4" />
        </button>
      </div>
      <div className="flex flex-col gap-4 sm:flex-row sm:gap-8">
        <div className="sm:w-48">
          <Field label="Date" error={problems[`override:${o.key}:date`]}>
            {(p) => (
              <input
                {...p}
                type="date"
                data-spot={`override:${o.key}:date`}
                value={o.date}
                onChange={(e) => actions.setDate(o.key, e.target.value)}
                className={inputClass}
              />
            )}
          </Field>
        </div>
        <fieldset className="flex min-w-0 flex-1 flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-800">Hours on this date</legend>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name={`override-${o.key}-hours`}
              checked={!o.available}
              onChange={() => actions.setAvailable(o.key, false)}
              className="size-4 accent-blue-600"
            />
            Closed all day
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name={`override-${o.key}-hours`}
              data-spot={`override:${o.key}:intervals`}
              checked={o.available}
              onChange={() => actions.setAvailable(o.key, true)}
              aria-describedby={intervalsProblem ? `override-${o.key}-intervals-problem` : undefined}
              className="size-4 accent-blue-600"
            />
            Available at these hours
          </label>
          {o.available && (
            <div className="mt-1 flex flex-col gap-2 sm:pl-6">
              <IntervalList
                context={title}
                intervals={o.intervals}
                problems={problems}
                onChange={(key, change) => actions.changeInterval(o.key, key, change)}
                onRemove={(key) => actions.removeInterval(o.key, key)}
              />
              <div>
                <Button variant="ghost" size="sm" onClick={() => actions.addInterval(o.key)} aria-label={`Add an interval to ${title}`}>
                  <PlusIcon className="size-4" />
                  Add an interval
                </Button>
              </div>
            </div>
          )}
          {intervalsProblem && (
            <p id={`override-${o.key}-intervals-problem`} className="text-sm text-red-700">
              {intervalsProblem}
            </p>
          )}
        </fieldset>
      </div>
    </div>
  );
}
