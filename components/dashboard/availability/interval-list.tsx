"use client";

import { useController, useFormContext } from "react-hook-form";
import { TrashIcon } from "@/components/ui/icons";
import { END_OF_DAY, type AvailabilityDraft } from "@/lib/forms/availability";

// A time input cannot hold 24:00; as an end, 00:00 can only mean midnight at the day's end
// (an end must come after its start), so the end box shows 00:00 for 24:00 and sends 24:00 back.
const endShown = (end: string) => (end === END_OF_DAY ? "00:00" : end);
const endSent = (shown: string) => (shown === "00:00" ? END_OF_DAY : shown);

export const timeInputClass =
  "w-full min-w-0 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 tabular-nums focus:border-blue-600 focus:outline-2 focus:outline-blue-600 aria-[invalid=true]:border-red-500 aria-[invalid=true]:bg-red-50";

/** The form path of a list of intervals: a weekday's or an override's. */
export type IntervalsPath = `days.${number}.intervals` | `overrides.${number}.intervals`;

/** One start–end row, removable, with its problem below it. */
function IntervalRow({ base, index, name, onRemove }: { base: IntervalsPath; index: number; name: string; onRemove: () => void }) {
  const { control } = useFormContext<AvailabilityDraft>();
  const {
    field: { ref: startRef, ...start },
    fieldState: { error: startError },
  } = useController({ control, name: `${base}.${index}.startTime` });
  const {
    field: { ref: endRef, ...end },
    fieldState: { error: endError },
  } = useController({ control, name: `${base}.${index}.endTime` });
  const startProblem = startError?.message;
  const endProblem = endError?.message;
  const problemId = `problem-${base.replace(/\./g, "-")}-${index}`;
  return (
    <div role="group" aria-label={name} className="flex flex-col gap-1">
      {/* The boxes share the row on a phone and stop growing at 20rem on a wide screen. */}
      <div className="grid max-w-xs grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)_auto] items-center gap-2">
        <input
          type="time"
          aria-label="Start"
          name={start.name}
          ref={startRef}
          data-spot={start.name}
          value={start.value}
          onChange={(e) => start.onChange(e.target.value)}
          onBlur={start.onBlur}
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
          name={end.name}
          ref={endRef}
          data-spot={end.name}
          value={endShown(end.value)}
          onChange={(e) => end.onChange(endSent(e.target.value))}
          onBlur={end.onBlur}
          aria-invalid={Boolean(endProblem)}
          aria-describedby={endProblem ? problemId : end.value === END_OF_DAY ? `${problemId}-midnight` : undefined}
          className={timeInputClass}
        />
        <button
          type="button"
          onClick={onRemove}
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
      {!startProblem && !endProblem && end.value === END_OF_DAY && (
        <p id={`${problemId}-midnight`} className="text-xs text-slate-500">
          Until midnight (24:00)
        </p>
      )}
    </div>
  );
}

/** The intervals of one day (weekly or an override): start–end rows, each removable, each with its problem below it. */
export function IntervalList({
  context,
  base,
  rows,
  onRemove,
}: {
  /** Whose intervals, in words: "Monday", "Friday, March 12, 2027". */
  context: string;
  base: IntervalsPath;
  /** The rows' keys (useFieldArray's ids), in order. */
  rows: { id: string }[];
  onRemove: (index: number) => void;
}) {
  return (
    <div className="flex flex-col gap-2">
      {rows.map((row, n) => (
        <IntervalRow key={row.id} base={base} index={n} name={`${context}, interval ${n + 1}`} onRemove={() => onRemove(n)} />
      ))}
    </div>
  );
}
