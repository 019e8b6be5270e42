"use client";

import { useEffect, useId, useState } from "react";
import { inputClass } from "@/components/ui/field";
import { fetchSeriesPreview, type SeriesPreviewDto } from "@/lib/browser/api-client/public";
import { plural } from "@/lib/i18n/fill";
import { formatClockRange, formatLongDay } from "@/lib/time/format";
import { useGuestText } from "./guest-i18n";

/** A recurring event type's terms (decisions §19). */
export type Recurrence = { everyWeeks: number; maxOccurrences: number };

/** What the guest chose and whether it can be booked: one session, or a series whose every date is free. */
export type SeriesState = { occurrences: number; ready: boolean };

type Props = {
  owner: string;
  slug: string;
  startTime: string;
  timezone: string;
  hour12: boolean;
  recurrence: Recurrence;
  occurrences: number;
  onChange: (state: SeriesState) => void;
  /** Bumped when the booking was refused for a date: the dates are checked again. */
  recheck: number;
};

/**
 * How many sessions the guest books, and every date they would take before they book them:
 * checked by the API (the same engine as the booking), the ones not free marked. A series is
 * booked whole or not at all, so the form waits until every date is free.
 */
export function SeriesChoice({ owner, slug, startTime, timezone, hour12, recurrence, occurrences, onChange, recheck }: Props) {
  const { m, intl, locale } = useGuestText();
  const selectId = useId();
  const [preview, setPreview] = useState<{ key: string; data?: SeriesPreviewDto; failed?: boolean } | null>(null);
  const key = `${startTime}|${occurrences}|${timezone}|${recheck}`;

  useEffect(() => {
    if (occurrences < 2) return;
    const abort = new AbortController();
    fetchSeriesPreview(owner, slug, { startTime, occurrences, timezone }, abort.signal).then(
      (data) => {
        setPreview({ key, data });
        onChange({ occurrences, ready: data.occurrences.every((o) => o.available) });
      },
      () => !abort.signal.aborted && setPreview({ key, failed: true }),
    );
    return () => abort.abort();
    // onChange is the form's setter; the key holds everything the answer depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const shown = preview?.key === key ? preview : null;
  const taken = shown?.data?.occurrences.filter((o) => !o.available).length ?? 0;
  const choices = Array.from({ length: recurrence.maxOccurrences }, (_, i) => i + 1);
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={selectId} className="font-medium text-slate-900">
        {m.sessions}
      </label>
      <select
        id={selectId}
        name="occurrences"
        value={occurrences}
        onChange={(e) => {
          const n = Number(e.target.value);
          onChange({ occurrences: n, ready: n === 1 });
        }}
        className={inputClass}
      >
        {choices.map((n) => (
          <option key={n} value={n}>
            {n === 1 ? m.sessionsOnce : plural(locale, m.sessionsEvery, recurrence.everyWeeks, { count: n, weeks: recurrence.everyWeeks })}
          </option>
        ))}
      </select>
      {occurrences > 1 && (
        <div aria-live="polite" className="rounded-md border border-slate-200 p-3">
          <p className="text-sm font-semibold text-slate-900">{m.seriesDates}</p>
          {!shown && <p className="text-sm text-slate-600">{m.seriesChecking}</p>}
          {shown?.failed && <p className="text-sm text-red-700">{m.seriesCheckFailed}</p>}
          {shown?.data && (
            <>
              <ol className="mt-1 flex flex-col gap-1 text-sm" data-testid="series-dates">
                {shown.data.occurrences.map((o) => (
                  <li key={o.startTime} data-available={o.available} className={o.available ? "text-slate-800" : "text-red-700"}>
                    {formatLongDay(o.startTime, timezone, { year: true, locale: intl })},{" "}
                    <span className="whitespace-nowrap">{formatClockRange(o.startTime, o.endTime, timezone, hour12, intl)}</span>
                    {!o.available && <strong className="ml-1 font-semibold">({m.seriesTaken})</strong>}
                  </li>
                ))}
              </ol>
              {taken > 0 && (
                <p role="alert" className="mt-2 text-sm text-red-700">
                  {plural(locale, m.seriesNotFree, taken)}
                </p>
              )}
            </>
          )}
        </div>
      )}
    </div>
  );
}
