"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import { explainTime, type ExplanationDto } from "@/lib/browser/api-client/event-types";
import { momentWhen, zoneWords } from "@/lib/dashboard/when";
import { instantOfWall } from "@/lib/time/format";

/**
 * "Why can't a guest book 3 pm on Tuesday?": asks the explain endpoint about one time (in the
 * host's zone) and lists every reason, the way the slot list sees it.
 */
export function CheckATime({ eventTypeId, zone }: { eventTypeId: string; zone: string }) {
  const [date, setDate] = useState("");
  const [time, setTime] = useState("09:00");
  const check = useMutation<ExplanationDto, ApiError, string>({ mutationFn: (startTime) => explainTime({ kind: "me" }, eventTypeId, startTime) });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!date || !time) return;
    check.mutate(new Date(instantOfWall(date, time, zone)).toISOString());
  }

  return (
    <section aria-labelledby="check-heading" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="check-heading" className="text-lg font-semibold">
        Check a time
      </h2>
      <p className="text-sm text-slate-600">Can a guest book it, and if not, why? Times in your timezone, {zoneWords(zone)}.</p>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Date
          <input type="date" required value={date} onChange={(e) => setDate(e.target.value)} className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Time
          <input type="time" required value={time} onChange={(e) => setTime(e.target.value)} className={inputClass} />
        </label>
        <Button type="submit" variant="secondary" disabled={check.isPending || !date}>
          {check.isPending ? "Checking…" : "Check"}
        </Button>
      </form>
      <div aria-live="polite">
        {check.isError && <Alert tone="error">{check.error.message}</Alert>}
        {check.data &&
          (check.data.bookable ? (
            <Alert tone="success">
              {momentWhen(check.data.startTime, zone)} is open: guests see it and can book it.
            </Alert>
          ) : (
            <Alert tone="warning">
              <p className="font-medium">
                {momentWhen(check.data.startTime, zone)} is not bookable:
              </p>
              <ul className="mt-1 list-disc pl-5">
                {check.data.reasons.map((r, i) => (
                  <li key={i}>{r.message}</li>
                ))}
              </ul>
            </Alert>
          ))}
        {/* Beside the answer: a calendar whose busy data may be old (decisions §21), even when the time looks open. */}
        {check.data?.calendars && check.data.calendars.length > 0 && (
          <Alert tone="warning" className="mt-2">
            <p className="font-medium">Your calendars may be out of date:</p>
            <ul className="mt-1 list-disc pl-5">
              {check.data.calendars.map((c) => (
                <li key={c.connectionId}>{c.message}</li>
              ))}
            </ul>
          </Alert>
        )}
      </div>
    </section>
  );
}
