"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { DateTime } from "luxon";
import { useEffect, useState } from "react";
import { FormProvider, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { FormField, TextField } from "@/components/ui/form-field";
import { TimezoneSelect } from "@/components/ui/timezone-select";
import { useApiForm } from "@/components/ui/use-api-form";
import { useHydrated } from "@/components/ui/use-hydrated";
import { useFocusAfterRender } from "@/components/ui/use-focus-after-render";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { accountKeys } from "@/lib/browser/api-client/account";
import { availabilityKeys, saveAvailability, saveSchedule, type AvailabilityDto } from "@/lib/browser/api-client/availability";
import { availabilityRules, describeSpot, draftFrom, humanise, pageRank, spotOf, toBody, type AvailabilityDraft } from "@/lib/forms/availability";
import { DateOverrides, longDate } from "./date-overrides";
import { WeeklyHours } from "./weekly-hours";

const bodyOf = (d: AvailabilityDraft) => JSON.stringify(toBody(d));
const numberInput = { type: "number", inputMode: "numeric", step: 1 } as const;

/**
 * The whole availability in one form and one Save (PUT /me/availability). Problems are shown at
 * their rows, checked here first with the API's own schema and then by the API, whose issue paths
 * are mapped back to the rows that produced them; a summary above lists them all.
 * With `schedule` (one that is not the default) it edits that schedule's zone and hours instead
 * (PUT /me/schedules/{id}); notice and window are the host's and stay with the default.
 */
export function AvailabilityForm({ initial, schedule }: { initial: AvailabilityDto; schedule?: { id: string; name: string } }) {
  const queryClient = useQueryClient();
  const apiForm = useApiForm<AvailabilityDraft>({ rules: availabilityRules, defaultValues: draftFrom(initial) });
  const { form, formRef, problems, onSubmit, showServerIssues, focusFirstProblem } = apiForm;
  // Typing into the server's HTML before hydration would be lost: the fields wait for it.
  const hydrated = useHydrated();
  const draft = useWatch({ control: form.control }) as AvailabilityDraft;
  const [savedBody, setSavedBody] = useState(() => bodyOf(draftFrom(initial)));
  // Problems no row can show: a network failure, or an issue the page cannot place.
  const [general, setGeneral] = useState<string[]>([]);
  const [savedOnce, setSavedOnce] = useState(false);
  // Said to screen readers after a change they cannot see happen (a copy to other days).
  const [announcement, setAnnouncement] = useState("");
  const focusSoon = useFocusAfterRender();
  const focusNext = (selector: string) => focusSoon(() => document.querySelector<HTMLElement>(selector));
  const save = useMutation({
    mutationFn: async (body: ReturnType<typeof toBody>): Promise<AvailabilityDto> => {
      if (!schedule) return saveAvailability(body);
      const { timezone, weeklyRules, dateOverrides } = body;
      const stored = await saveSchedule(schedule.id, { name: schedule.name, timezone, weeklyRules, dateOverrides });
      return { ...stored, minNoticeHours: initial.minNoticeHours, maxAdvanceDays: initial.maxAdvanceDays };
    },
  });
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

  // Every problem at once: at its row, and listed in the summary (announced as an alert). The
  // focus goes to the first row to fix; with nothing at a row, to the summary.
  const submit = onSubmit(
    async (sent) => {
      setGeneral([]);
      try {
        const stored = await save.mutateAsync(toBody(sent));
        void queryClient.invalidateQueries({ queryKey: availabilityKeys.schedules, exact: true });
        if (!schedule) {
          queryClient.setQueryData(availabilityKeys.default, stored);
          // The timezone is the profile's too.
          if (stored.timezone !== initial.timezone) void queryClient.invalidateQueries({ queryKey: accountKeys.me, exact: true });
        }
        const next = draftFrom(stored);
        form.reset(next);
        setSavedBody(bodyOf(next));
        setSavedOnce(true);
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return; // the dashboard's provider is taking the person to /login
        if (error instanceof ApiError && error.status === 400 && error.issues.length > 0) {
          // The API names rules by their place in the body that was sent: the rows of `sent`.
          setGeneral(showServerIssues(error.issues, (path) => spotOf(path, sent), humanise).map((i) => i.message));
        } else {
          setGeneral([error instanceof Error ? error.message : "Something went wrong. Please try again."]);
        }
        focusFirstProblem("#availability-problems");
      }
    },
    () => setGeneral([]),
  );

  const summary = [
    ...Object.entries(problems)
      .sort(([a], [b]) => pageRank(a) - pageRank(b))
      .map(([spot, message]) => ({ spot, text: `${describeSpot(draft, spot, longDate)}: ${message}` })),
    ...general.map((text) => ({ spot: undefined, text })),
  ];
  const today = DateTime.now().setZone(draft.timezone || "UTC").toISODate() ?? "";
  const { control } = form;

  return (
    <FormProvider {...form}>
      <form ref={formRef} onSubmit={submit} noValidate className="flex max-w-3xl flex-col gap-6">
        <fieldset disabled={!hydrated} className="contents">
        {summary.length > 0 && (
          <div id="availability-problems" tabIndex={-1} role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-red-900 focus:outline-2 focus:outline-red-600">
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
                      onClick={() => formRef.current?.querySelector<HTMLElement>(`[data-spot="${s.spot}"]`)?.focus()}
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
          <FormField control={control} name="timezone" label="Timezone" hint={schedule ? "This schedule's hours below are in this timezone." : "Your hours below are in this timezone. It is your profile's timezone too."}>
            {(p, field) => <TimezoneSelect {...p} data-spot="timezone" name={field.name} value={field.value} onChange={field.onChange} />}
          </FormField>
        </div>

        <WeeklyHours focusNext={focusNext} announce={setAnnouncement} />
        <DateOverrides today={today} focusNext={focusNext} />

        {schedule ? (
          <p className="text-sm text-slate-600">Minimum notice and booking window are yours, set with your default schedule; an event type may set its own.</p>
        ) : (
          <section aria-labelledby="limits-heading" className="rounded-lg border border-slate-200 bg-white p-4 sm:px-6">
            <h2 id="limits-heading" className="mb-3 text-lg font-semibold">
              Booking limits
            </h2>
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                control={control}
                name="minNoticeHours"
                label="Minimum notice (hours)"
                hint="Guests cannot book a time that starts sooner than this."
                {...numberInput}
                min={0}
                max={8760}
                data-spot="minNoticeHours"
              />
              <TextField
                control={control}
                name="maxAdvanceDays"
                label="Booking window (days)"
                hint="How many days ahead guests can book."
                {...numberInput}
                min={1}
                max={730}
                data-spot="maxAdvanceDays"
              />
            </div>
          </section>
        )}

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
        </fieldset>
      </form>
    </FormProvider>
  );
}
