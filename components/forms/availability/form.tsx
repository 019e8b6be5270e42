"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { DateTime } from "luxon";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { TimezoneSelect } from "@/components/ui/timezone-select";
import { useFocusAfterRender } from "@/components/ui/use-focus-after-render";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { hostKeys, saveAvailability, type AvailabilityDto } from "@/lib/browser/api-client/host";
import { hasErrors } from "@/lib/forms/field-errors";
import { describeSpot, draftFrom, pageRank, placeIssues, toBody, validate, type AvailabilityDraft, type Problems, type Spot } from "@/lib/availability-draft";
import { DateOverrides, longDate } from "./date-overrides";
import { useAvailabilityDraft } from "./use-availability-draft";
import { WeeklyHours } from "./weekly-hours";

const bodyOf = (d: AvailabilityDraft) => JSON.stringify(toBody(d).body);

/**
 * The whole availability in one form and one Save (PUT /me/availability). Problems are shown at
 * their rows, checked here first and then by the API, whose issue paths are mapped back to the
 * rows that produced them; a summary above lists them all.
 */
export function AvailabilityForm({ initial }: { initial: AvailabilityDto }) {
  const queryClient = useQueryClient();
  const { formRef, draft, setDraft, problems: fieldErrors, announcement, edit, weekly, overrides } = useAvailabilityDraft(initial);
  const problems = fieldErrors.errors;
  const [savedBody, setSavedBody] = useState(() => bodyOf(draftFrom(initial)));
  // Problems no row can show: a network failure, or an issue the page cannot place.
  const [general, setGeneral] = useState<string[]>([]);
  const [savedOnce, setSavedOnce] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);
  const focusSoon = useFocusAfterRender();
  const save = useMutation({ mutationFn: saveAvailability });
  const dirty = bodyOf(draft) !== savedBody;
  const saved = savedOnce && !dirty;

  // The save bar is sticky: keep a focused control from scrolling underneath it; and warn before
  // unsaved changes are lost with the page.
  useEffect(() => {
    const root = document.documentElement;
    root.style.scrollPaddingBottom = "6rem";
    return () => {
      root.style.scrollPaddingBottom = "";
    };
  }, []);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  /**
   * Every problem at once: at its row, and listed in the summary (announced as an alert). The
   * focus goes to the first row to fix; with nothing at a row, to the summary.
   */
  function showProblems(found: { local?: Problems; server?: Problems }, other: string[]) {
    fieldErrors.show(found.local ?? {}, found.server ?? {});
    setGeneral(other);
    if (!hasErrors(found.local ?? {}) && !hasErrors(found.server ?? {})) focusSoon(() => summaryRef.current);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(draft);
    if (hasErrors(found)) return showProblems({ local: found }, []);
    const sent = toBody(draft);
    try {
      const stored = await save.mutateAsync(sent.body);
      queryClient.setQueryData(hostKeys.availability, stored);
      // The timezone is the profile's too.
      if (stored.timezone !== initial.timezone) void queryClient.invalidateQueries({ queryKey: hostKeys.me, exact: true });
      const next = draftFrom(stored);
      setDraft(next);
      setSavedBody(bodyOf(next));
      fieldErrors.clear();
      setGeneral([]);
      setSavedOnce(true);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.issues.length > 0) {
        const placed = placeIssues(error.issues, sent);
        showProblems({ server: placed.problems }, placed.unplaced);
      } else if (error instanceof ApiError && error.status === 401) {
        // The dashboard's provider is taking the person to /login.
      } else {
        showProblems({}, [error instanceof Error ? error.message : "Something went wrong. Please try again."]);
      }
    }
  }

  const summary = [
    ...(Object.entries(problems) as [Spot, string][])
      .sort(([a], [b]) => pageRank(draft, a) - pageRank(draft, b))
      .map(([spot, message]) => ({ spot, text: `${describeSpot(draft, spot, longDate)}: ${message}` })),
    ...general.map((text) => ({ spot: undefined, text })),
  ];
  const today = DateTime.now().setZone(draft.timezone || "UTC").toISODate() ?? "";

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex max-w-3xl flex-col gap-6">
      {summary.length > 0 && (
        <div ref={summaryRef} tabIndex={-1} role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-red-900 focus:outline-2 focus:outline-red-600">
          <h2 className="font-semibold">
            {summary.length === 1 ? "One thing to fix before your availability can be saved:" : `${summary.length} things to fix before your availability can be saved:`}
          </h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
            {summary.map((s, i) => (
              <li key={`${i}-${s.text}`}>
                {s.spot ? (
                  <button
                    type="button"
                    className="text-left underline underline-offset-2 hover:no-underline"
                    onClick={() => document.querySelector<HTMLElement>(`[data-spot="${s.spot}"]`)?.focus()}
                  >
                    {s.text}
                  </button>
                ) : (
                  s.text
                )}
              </li>
            ))}
          </ul>
        </div>
      )}

      <div className="rounded-lg border border-slate-200 bg-white p-4 sm:px-6">
        <Field label="Timezone" hint="Your hours below are in this timezone. It is your profile's timezone too." error={problems.timezone}>
          {(p) => (
            <TimezoneSelect
              {...p}
              data-spot="timezone"
              value={draft.timezone}
              onChange={(timezone) => edit((d) => ({ ...d, timezone }), ["timezone"])}
            />
          )}
        </Field>
      </div>

      <WeeklyHours days={draft.days} problems={problems} actions={weekly} />
      <DateOverrides overrides={draft.overrides} problems={problems} today={today} actions={overrides} />

      <section aria-labelledby="limits-heading" className="rounded-lg border border-slate-200 bg-white p-4 sm:px-6">
        <h2 id="limits-heading" className="mb-3 text-lg font-semibold">
          Booking limits
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Minimum notice (hours)" hint="Guests cannot book a time that starts sooner than this." error={problems.minNoticeHours}>
            {(p) => (
              <input
                {...p}
                type="number"
                inputMode="numeric"
                min={0}
                max={8760}
                step={1}
                data-spot="minNoticeHours"
                value={draft.minNoticeHours}
                onChange={(e) => edit((d) => ({ ...d, minNoticeHours: e.target.value }), ["minNoticeHours"])}
                className={inputClass}
              />
            )}
          </Field>
          <Field label="Booking window (days)" hint="How many days ahead guests can book." error={problems.maxAdvanceDays}>
            {(p) => (
              <input
                {...p}
                type="number"
                inputMode="numeric"
                min={1}
                max={730}
                step={1}
                data-spot="maxAdvanceDays"
                value={draft.maxAdvanceDays}
                onChange={(e) => edit((d) => ({ ...d, maxAdvanceDays: e.target.value }), ["maxAdvanceDays"])}
                className={inputClass}
              />
            )}
          </Field>
        </div>
      </section>

      <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center justify-end gap-3 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-lg sm:border">
        <p role="status" className="mr-auto text-sm">
          {save.isPending ? (
            <span className="text-slate-600">Saving…</span>
          ) : saved ? (
            <span className="font-medium text-green-800">Saved</span>
          ) : dirty ? (
            <span className="text-slate-600">You have unsaved changes</span>
          ) : null}
        </p>
        <p aria-live="polite" className="sr-only">
          {announcement}
        </p>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save"}
        </Button>
      </div>
    </form>
  );
}
