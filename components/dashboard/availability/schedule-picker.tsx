"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { inputClass } from "@/components/ui/field";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { accountKeys } from "@/lib/browser/api-client/account";
import { availabilityKeys, createSchedule, deleteSchedule, saveSchedule, type ScheduleDto } from "@/lib/browser/api-client/availability";

/**
 * Which schedule the page edits (decisions §16): a picker of the host's schedules, the default
 * marked, and the schedule verbs beside it: new, rename, make default, delete. A schedule an event
 * type uses cannot be deleted: the API's answer names them, shown here as it comes.
 */
export function SchedulePicker({ schedules, selected, onSelect }: { schedules: ScheduleDto[]; selected: ScheduleDto; onSelect: (id: string) => void }) {
  const queryClient = useQueryClient();
  const selectId = useId();
  const nameId = useId();
  const [naming, setNaming] = useState<"new" | "rename" | undefined>();
  const [name, setName] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();

  const refresh = async (alsoHost = false) => {
    await queryClient.invalidateQueries({ queryKey: availabilityKeys.schedules, exact: true });
    if (alsoHost) {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: availabilityKeys.default, exact: true }),
        queryClient.invalidateQueries({ queryKey: accountKeys.me, exact: true }),
      ]);
    }
  };
  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401) return;
    setProblem(error instanceof ApiError && error.issues.length > 0 ? error.issues.map((i) => i.message).join(" ") : error instanceof Error ? error.message : "Something went wrong. Please try again.");
  };
  const body = (s: ScheduleDto, change: Partial<ScheduleDto> = {}) => ({ name: s.name, timezone: s.timezone, weeklyRules: s.weeklyRules, dateOverrides: s.dateOverrides, ...change });

  const create = useMutation({ mutationFn: createSchedule });
  const rename = useMutation({ mutationFn: ({ id, change }: { id: string; change: ReturnType<typeof body> }) => saveSchedule(id, change) });
  const remove = useMutation({ mutationFn: deleteSchedule });

  const submitName = async (e: FormEvent) => {
    e.preventDefault();
    setProblem(undefined);
    const trimmed = name.trim();
    if (!trimmed) return setProblem("Give the schedule a name.");
    try {
      if (naming === "new") {
        // A new schedule starts as a copy of the one on screen, in its zone: easier to adjust than to fill in.
        const made = await create.mutateAsync({ name: trimmed, timezone: selected.timezone, weeklyRules: selected.weeklyRules, dateOverrides: selected.dateOverrides });
        await refresh();
        onSelect(made.id);
      } else {
        await rename.mutateAsync({ id: selected.id, change: body(selected, { name: trimmed }) });
        await refresh();
      }
      setNaming(undefined);
    } catch (error) {
      failed(error);
    }
  };

  const makeDefault = async () => {
    setProblem(undefined);
    try {
      await rename.mutateAsync({ id: selected.id, change: { ...body(selected), isDefault: true } });
      await refresh(true);
    } catch (error) {
      failed(error);
    }
  };

  const confirmDelete = async () => {
    setProblem(undefined);
    try {
      await remove.mutateAsync(selected.id);
      setConfirming(false);
      onSelect(schedules.find((s) => s.isDefault)!.id);
      await refresh();
    } catch (error) {
      setConfirming(false);
      failed(error);
    }
  };

  const label = (s: ScheduleDto) => (s.isDefault ? `${s.name} (default)` : s.name);
  const busy = create.isPending || rename.isPending || remove.isPending;

  return (
    <section aria-labelledby={`${selectId}-heading`} className="flex max-w-3xl flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:px-6">
      <h2 id={`${selectId}-heading`} className="sr-only">
        Schedules
      </h2>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={selectId} className="text-sm font-medium text-slate-800">
            Schedule
          </label>
          <select id={selectId} className={inputClass} value={selected.id} onChange={(e) => onSelect(e.target.value)} disabled={busy}>
            {schedules.map((s) => (
              <option key={s.id} value={s.id}>
                {label(s)}
              </option>
            ))}
          </select>
        </div>
        <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
          <Button variant="secondary" size="sm" onClick={() => (setNaming("new"), setName(""), setProblem(undefined))} disabled={busy}>
            New schedule
          </Button>
          <Button variant="secondary" size="sm" onClick={() => (setNaming("rename"), setName(selected.name), setProblem(undefined))} disabled={busy}>
            Rename
          </Button>
          {!selected.isDefault && (
            <>
              <Button variant="secondary" size="sm" onClick={() => void makeDefault()} disabled={busy}>
                Make default
              </Button>
              <Button variant="secondary" size="sm" className="border-red-300! text-red-700! hover:bg-red-50!" onClick={() => (setConfirming(true), setProblem(undefined))} disabled={busy}>
                Delete
              </Button>
            </>
          )}
        </div>
      </div>
      <p className="text-sm text-slate-600">
        {selected.isDefault
          ? "Your default schedule: team event types and event types without a schedule of their own use it. It cannot be deleted."
          : "Event types can use this schedule instead of your default; choose it in an event type's settings."}
      </p>

      {naming && (
        <form onSubmit={(e) => void submitName(e)} className="flex flex-col gap-2 sm:flex-row sm:items-end" noValidate>
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <label htmlFor={nameId} className="text-sm font-medium text-slate-800">
              {naming === "new" ? "Name of the new schedule" : "New name"}
            </label>
            <input id={nameId} className={inputClass} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} autoFocus />
          </div>
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={busy}>
              {naming === "new" ? "Create" : "Rename"}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setNaming(undefined)}>
              Cancel
            </Button>
          </div>
        </form>
      )}
      {problem && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          {problem}
        </p>
      )}

      <ConfirmDialog
        open={confirming}
        title={`Delete “${selected.name}”?`}
        confirmLabel="Delete schedule"
        pending={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setConfirming(false)}
      >
        Its hours and date overrides are removed. A schedule an event type uses cannot be deleted.
      </ConfirmDialog>
    </section>
  );
}
