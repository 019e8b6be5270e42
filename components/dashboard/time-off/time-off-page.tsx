"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { LoadError, Loading } from "@/components/dashboard/query-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { TextAreaField, TextField } from "@/components/ui/form-field";
import { useApiForm } from "@/components/ui/use-api-form";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { createOutOfOffice, deleteOutOfOffice, outOfOfficeQuery, timeOffKeys, type OutOfOfficeDto } from "@/lib/browser/api-client/time-off";
import { NEW_OUT_OF_OFFICE, outOfOfficeBody, outOfOfficeFieldOf, outOfOfficeRules, periodWords, type OutOfOfficeValues } from "@/lib/forms/time-off";
import { OUT_OF_OFFICE_NOTE_MAX } from "@/lib/schemas/time-off";

// Time off (decisions §21): whole days away, read in the host's timezone, on which guests can book
// no time; the host's pages say "Away until …" and may send guests to a colleague meanwhile.

function NewPeriodForm({ today }: { today: string }) {
  const queryClient = useQueryClient();
  const { form, formRef, onSubmit, showServerIssues } = useApiForm<OutOfOfficeValues>({ rules: outOfOfficeRules, defaultValues: NEW_OUT_OF_OFFICE });
  const { control } = form;
  const [failure, setFailure] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const create = useMutation<OutOfOfficeDto, ApiError, OutOfOfficeValues>({
    mutationFn: (values) => createOutOfOffice(outOfOfficeBody(values)),
    onSuccess: (made) => {
      form.reset(NEW_OUT_OF_OFFICE);
      setAdded(`Added: ${periodWords(made.startDate, made.endDate)}. Guests cannot book you on those days.`);
      void queryClient.invalidateQueries({ queryKey: timeOffKeys.outOfOffice });
    },
  });
  const submit = onSubmit(
    async (values) => {
      setFailure(null);
      setAdded(null);
      try {
        await create.mutateAsync(values);
      } catch (error) {
        if (!(error instanceof ApiError)) return setFailure("Something went wrong on this page. Please try again.");
        const unplaced = showServerIssues(error.issues, outOfOfficeFieldOf);
        if (unplaced.length === error.issues.length) setFailure(error.message);
      }
    },
    () => {
      setFailure(null);
      setAdded(null);
    },
  );
  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5">
      <h2 className="text-lg font-semibold">Add time off</h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField control={control} name="startDate" type="date" min={today} label="First day away" required />
        <TextField control={control} name="endDate" type="date" min={today} label="Last day away" required hint="Included: you are back the day after." />
      </div>
      <TextAreaField control={control} name="note" label="Note for guests" hint="Optional, shown beside “Away until …” on your pages." maxLength={OUT_OF_OFFICE_NOTE_MAX} rows={2} />
      <TextField
        control={control}
        name="redirectUsername"
        label="Send guests to a colleague"
        hint="Optional: their username. Your pages link to their page (to the same event when they have one) while you are away."
        autoComplete="off"
        spellCheck={false}
      />
      {failure && <Alert tone="error">{failure}</Alert>}
      <div aria-live="polite">{added && <Alert tone="success">{added}</Alert>}</div>
      <Button type="submit" disabled={create.isPending} className="self-start">
        {create.isPending ? "Adding…" : "Add time off"}
      </Button>
    </form>
  );
}

function PeriodRow({ period, today }: { period: OutOfOfficeDto; today: string }) {
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteOutOfOffice(period.id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: timeOffKeys.outOfOffice }),
  });
  const when = periodWords(period.startDate, period.endDate);
  const parts = [when, ...(period.note ? [period.note] : []), ...(period.redirectFullName ? [`Guests are sent to ${period.redirectFullName}`] : [])];
  return (
    <li className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-medium">
          {parts.join(" · ")}
          {period.startDate <= today && <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">Away now</span>}
        </p>
        {period.redirectUsername && (
          <p className="text-sm text-slate-600">
            Their page:{" "}
            <a href={`/${period.redirectUsername}`} target="_blank" rel="noreferrer" className="text-blue-700 underline">
              /{period.redirectUsername}
            </a>
          </p>
        )}
        {remove.isError && <Alert tone="error">{remove.error.message}</Alert>}
      </div>
      <Button variant="secondary" size="sm" onClick={() => setConfirm(true)} className="self-start" aria-label={`Delete time off ${when}`}>
        Delete
      </Button>
      <ConfirmDialog open={confirm} title={`Delete time off ${when}?`} confirmLabel="Delete time off" pending={remove.isPending} onConfirm={() => remove.mutate()} onClose={() => setConfirm(false)}>
        <p>Guests can book you on these days again, within your hours.</p>
      </ConfirmDialog>
    </li>
  );
}

/** The host's time off: add a period, list those not over, delete one. `today` is the host's date. */
export function TimeOffPage({ today }: { today: string }) {
  const periods = useQuery(outOfOfficeQuery());
  return (
    <>
      <NewPeriodForm today={today} />
      <section aria-labelledby="periods-heading" className="flex flex-col gap-3">
        <h2 id="periods-heading" className="text-lg font-semibold">
          Your time off
        </h2>
        {periods.isPending ? (
          <Loading>Loading your time off…</Loading>
        ) : periods.isError ? (
          <LoadError what="your time off" error={periods.error} onRetry={() => void periods.refetch()} />
        ) : periods.data.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">
            No time off planned. Guests can book you whenever your <Link href="/dashboard/availability" className="text-blue-700 underline">hours</Link> allow.
          </p>
        ) : (
          <ul className="flex flex-col gap-3">
            {periods.data.map((p) => (
              <PeriodRow key={p.id} period={p} today={today} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
