"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useId } from "react";
import { useController, type Control } from "react-hook-form";
import { calendarConnectionsQuery } from "@/lib/browser/api-client/calendars";
import type { EventTypeValues } from "@/lib/forms/event-type";
import { connectionBrand } from "@/components/dashboard/calendars/calendar-words";
import type { EditorOwner } from "./owner";

// Which calendars block this event type (decisions §21): every calendar marked "check for
// conflicts" on the Calendars page, or a list chosen here (say, only Work for client calls, while
// Family still blocks the rest). A team's event type takes each host's own choice, and says so.

export const TEAM_CALENDARS_REASON =
  "Each host's calendars marked “check for conflicts” block a team event type: each host chooses which of their calendars count on their Calendars page.";

export function ConflictCalendarsSection({ control, owner, className }: { control: Control<EventTypeValues>; owner: EditorOwner["kind"]; className: string }) {
  const id = useId();
  const {
    field: { ref, ...field },
    fieldState,
  } = useController({ control, name: "conflictCalendars" });
  const connections = useQuery({ ...calendarConnectionsQuery(), enabled: owner === "me" });
  const value = field.value;
  const problemId = `${id}-problem`;
  const set = (next: Partial<EventTypeValues["conflictCalendars"]>) => field.onChange({ ...value, ...next });
  const all = connections.data?.flatMap((c) => c.calendars.map((cal) => ({ connection: c, calendar: cal }))) ?? [];
  const error = fieldState.error as ({ message?: string; all?: { message?: string } } | undefined);
  const message = error?.all?.message ?? error?.message;

  return (
    <section className={className} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="text-lg font-semibold">
        Calendars that block this event type
      </h2>
      {owner === "team" ? (
        <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-600">{TEAM_CALENDARS_REASON}</p>
      ) : (
        <fieldset className="flex flex-col gap-3" aria-describedby={message ? problemId : undefined}>
          <legend className="sr-only">Calendars that block this event type</legend>
          <label className="flex items-start gap-2 text-sm text-slate-800">
            <input type="radio" ref={ref} name={`${id}-mode`} checked={value.all} onChange={() => set({ all: true })} onBlur={field.onBlur} className="mt-0.5 h-4 w-4" />
            <span>
              <span className="font-medium">All calendars marked “check for conflicts”</span>
              <span className="block text-slate-500">What your Calendars page says for each calendar.</span>
            </span>
          </label>
          <label className="flex items-start gap-2 text-sm text-slate-800">
            <input type="radio" name={`${id}-mode`} checked={!value.all} onChange={() => set({ all: false })} onBlur={field.onBlur} className="mt-0.5 h-4 w-4" />
            <span>
              <span className="font-medium">Only the calendars I choose</span>
              <span className="block text-slate-500">Their busy times block it, whatever the Calendars page says; the others do not.</span>
            </span>
          </label>
          {!value.all &&
            (connections.isPending ? (
              <p className="pl-6 text-sm text-slate-600">Loading your calendars…</p>
            ) : connections.isError ? (
              <p className="pl-6 text-sm text-red-700">Your calendars could not be loaded. {connections.error.message}</p>
            ) : all.length === 0 ? (
              <p className="pl-6 text-sm text-slate-600">
                You have no calendars connected yet, so none block it.{" "}
                <Link href="/dashboard/calendars" className="text-blue-700 underline">
                  Connect a calendar
                </Link>
              </p>
            ) : (
              <ul className="flex flex-col gap-2 pl-6" aria-label="Your calendars">
                {all.map(({ connection, calendar }) => (
                  <li key={calendar.id}>
                    <label className="flex items-start gap-2 text-sm text-slate-800">
                      <input
                        type="checkbox"
                        checked={value.ids.includes(calendar.id)}
                        onChange={(e) => set({ ids: e.target.checked ? [...value.ids, calendar.id] : value.ids.filter((x) => x !== calendar.id) })}
                        className="mt-0.5 h-4 w-4"
                      />
                      <span>
                        <span className="font-medium">{calendar.name}</span>
                        <span className="block break-all text-slate-500">
                          {connectionBrand(connection)} · {connection.email}
                        </span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            ))}
          {!value.all && all.length > 0 && value.ids.length === 0 && (
            <p className="pl-6 text-sm text-amber-800">No calendar chosen: none of your calendars block this event type.</p>
          )}
          {message && (
            <p id={problemId} className="text-sm text-red-700">
              {message}
            </p>
          )}
        </fieldset>
      )}
    </section>
  );
}
