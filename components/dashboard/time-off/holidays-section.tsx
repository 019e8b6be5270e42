"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { LoadError, Loading } from "@/components/dashboard/query-state";
import { Alert } from "@/components/ui/alert";
import { Field, inputClass } from "@/components/ui/field";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import { holidaysQuery, saveHolidays, timeOffKeys, type HolidaysDto, type HolidaysInput } from "@/lib/browser/api-client/time-off";
import { formatCalendarDate } from "@/lib/time/month-grid";

// The availability page's public holidays (decisions §21): the country (and region) whose public
// holidays are days off, and each coming holiday with "I work this day". Every change is saved at
// once (PUT /me/holidays) and the page shows what the API answered.

export type HolidayPlaceOption = { code: string; name: string; regions: { code: string; name: string }[] };

const dayWords = (date: string) => formatCalendarDate(date, { year: true, locale: "en-US" });

export function HolidaysSection({ places }: { places: HolidayPlaceOption[] }) {
  const queryClient = useQueryClient();
  const holidays = useQuery(holidaysQuery());
  // A change shows at once (the tick, the region; the list follows the answer) and the controls
  // wait for its answer, so saves never cross; a failure puts back what was saved.
  const save = useMutation<HolidaysDto, ApiError, HolidaysInput, { before?: HolidaysDto }>({
    mutationFn: saveHolidays,
    onMutate: (input) => {
      const before = queryClient.getQueryData<HolidaysDto>(timeOffKeys.holidays);
      if (before && before.country === input.country) {
        const worked = new Set(input.workingOn);
        queryClient.setQueryData<HolidaysDto>(timeOffKeys.holidays, {
          ...before,
          region: input.region ?? null,
          workingOn: input.workingOn ?? [],
          upcoming: before.upcoming.map((h) => ({ ...h, working: worked.has(h.date) })),
        });
      }
      return { before };
    },
    onError: (_error, _input, context) => {
      if (context?.before) queryClient.setQueryData(timeOffKeys.holidays, context.before);
    },
    onSuccess: (saved) => queryClient.setQueryData(timeOffKeys.holidays, saved),
  });
  return (
    <section id="holidays" aria-labelledby="holidays-heading" className="flex max-w-3xl flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:px-6">
      <div className="flex flex-col gap-1">
        <h2 id="holidays-heading" className="text-lg font-semibold">
          Public holidays
        </h2>
        <p className="text-sm text-slate-600">The public holidays of your country are days off: guests can book no time on them, unless you tick that you work that day.</p>
      </div>
      {holidays.isPending ? (
        <Loading>Loading your public holidays…</Loading>
      ) : holidays.isError ? (
        <LoadError what="your public holidays" error={holidays.error} onRetry={() => void holidays.refetch()} />
      ) : (
        <HolidaysBody current={holidays.data} places={places} pending={save.isPending} onSave={(input) => save.mutate(input)} />
      )}
      <div aria-live="polite">{save.isError && <Alert tone="error">{save.error.message}</Alert>}</div>
    </section>
  );
}

function HolidaysBody({ current, places, pending, onSave }: { current: HolidaysDto; places: HolidayPlaceOption[]; pending: boolean; onSave: (input: HolidaysInput) => void }) {
  const place = places.find((p) => p.code === current.country);
  const working = new Set(current.workingOn);
  const toggle = (date: string, on: boolean) =>
    onSave({ country: current.country, region: current.region, workingOn: on ? [...current.workingOn, date] : current.workingOn.filter((d) => d !== date) });
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Country">
          {(p) => (
            <select
              {...p}
              value={current.country ?? ""}
              disabled={pending}
              onChange={(e) => onSave({ country: e.target.value || null, region: null, workingOn: [] })}
              className={inputClass}
            >
              <option value="">None: no public holidays</option>
              {places.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        {place && place.regions.length > 0 && (
          <Field label="Region" hint="Its own holidays count too.">
            {(p) => (
              <select
                {...p}
                value={current.region ?? ""}
                disabled={pending}
                onChange={(e) => onSave({ country: current.country, region: e.target.value || null, workingOn: current.workingOn })}
                className={inputClass}
              >
                <option value="">The whole country only</option>
                {place.regions.map((r) => (
                  <option key={r.code} value={r.code}>
                    {r.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
      </div>
      {current.country === null ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-4 text-slate-600">No public holidays count as days off. Choose your country to take them off.</p>
      ) : current.upcoming.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-4 text-slate-600">No public holidays in the next 12 months.</p>
      ) : (
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 text-sm font-medium text-slate-800">The next 12 months</legend>
          <ul className="divide-y divide-slate-100">
            {current.upcoming.map((h) => (
              <li key={h.date} className="flex flex-col gap-1 py-2 sm:flex-row sm:items-center sm:justify-between">
                <span>
                  <span className="font-medium">{h.name}</span> <span className="text-slate-600">· {dayWords(h.date)}</span>
                  {!working.has(h.date) && <span className="sr-only"> (a day off)</span>}
                </span>
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" className="h-4 w-4" checked={working.has(h.date)} disabled={pending} onChange={(e) => toggle(h.date, e.target.checked)} />
                  I work this day<span className="sr-only">: {h.name}</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
    </>
  );
}
