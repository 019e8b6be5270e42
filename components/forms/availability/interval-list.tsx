"use client";

import { TrashIcon } from "@/components/ui/icons";
import { END_OF_DAY, type IntervalDraft, type Problems, type Span } from "@/lib/availability-draft";

// A time input cannot hold 24:00; as an end, 00:00 can only mean midnight at the day's end
// (an end must come after its start), so the end box shows 00:00 for 24:00 and sends 24:00 back.
const endShown = (end: string) => (end === END_OF_DAY ? "00:00" : end);
const endSent = (shown: string) => (shown === "00:00" ? END_OF_DAY : shown);

export const timeInputClass =
  "w-full min-w-0 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 tabular-nums focus:border-blue-600 focus:outline-2 focus:outline-blue-600 aria-[invalid=true]:border-red-500 aria-[invalid=true]:bg-red-50";

/** The intervals of one day (weekly or an override): start–end rows, each removable, each with its problem below it. */
export function IntervalList({
  context,
  intervals,
  problems,
  onChange,
  onRemove,
}: {
  /** Whose intervals, in words: "Monday", "Friday, March 12, 2027". */
  context: string;
  intervals: IntervalDraft[];
  problems: Problems;
  onChange: (key: string, change: Partial<Span>) => void;
  onRemove: (key: string) => void;
}) {
  return (
    <div className="flex flex-col gap-2">
      {intervals.map((interval, n) => {
        const name = `${context}, interval ${n + 1}`;
        const startProblem = problems[`interval:${interval.key}:startTime`];
        const endProblem = problems[`interval:${interval.key}:endTime`];
        const problemId = `problem-${interval.key}`;
        return (
          <div key={interval.key} role="group" aria-label={name} className="flex flex-col gap-1">
            {/* The boxes share the row on a phone and stop growing at 20rem on a wide screen. */}
            <div className="grid max-w-xs grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)_auto] items-center gap-2">
              <input
                type="time"
                aria-label="Start"
                data-spot={`interval:${interval.key}:startTime`}
                value={interval.startTime}
                onChange={(e) => onChange(interval.key, { startTime: e.target.value })}
                aria-invalid={Boolean(startProblem)}
                aria-describedby={startProblem ? problemId : undefined}
                className={timeInputClass}
              />
              <span aria-hidden="true" className="text-slate-500">
                –
              </span>
              <input
                type="time"
                aria-label="End"
                data-spot={`interval:${interval.key}:endTime`}
                value={endShown(interval.endTime)}
                onChange={(e) => onChange(interval.key, { endTime: endSent(e.target.value) })}
                aria-invalid={Boolean(endProblem)}
                aria-describedby={endProblem ? problemId : interval.endTime === END_OF_DAY ? `${problemId}-midnight` : undefined}
                className={timeInputClass}
              />
              <button
                type="button"
                onClick={() => onRemove(interval.key)}
                aria-label={`Remove ${name}`}
                title="Remove"
                className="rounded-md p-2 text-slate-500 hover:bg-slate-100 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-blue-600"
              >
                <TrashIcon className="size-4" />
              </button>
            </div>
            {(startProblem || endProblem) && (
              <p id={problemId} className="text-sm text-red-700">
                {startProblem ?? endProblem}
              </p>
            )}
            {!startProblem && !endProblem && interval.endTime === END_OF_DAY && (
              <p id={`${problemId}-midnight`} className="text-xs text-slate-500">
                Until midnight (24:00)
              </p>
            )}
          </div>
        );
      })}
    </div>
  );
}
