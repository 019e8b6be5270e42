"use client";

import { useId } from "react";
import { useController, type Control } from "react-hook-form";
import { FieldMessage } from "@/components/ui/form-field";
import type { TeamMemberDto } from "@/lib/browser/api-client/teams";
import type { EventTypeValues } from "@/lib/forms/event-type";
import { possibleHosts, SCHEDULING_TYPES } from "@/lib/forms/event-type-hosts";

// A team event type's own part of the event-type form: how a booking goes to the hosts (round
// robin or collective) and which of the team's active members host it (at least one).

const groupClass = "flex flex-col gap-2";
const legendClass = "mb-1 text-sm font-medium text-slate-800";

function SchedulingTypeField({ control }: { control: Control<EventTypeValues> }) {
  const id = useId();
  const {
    field: { ref, ...field },
    fieldState,
  } = useController({ control, name: "schedulingType" });
  const problemId = `${id}-problem`;
  return (
    <fieldset className={groupClass} aria-describedby={fieldState.error ? problemId : undefined}>
      <legend className={legendClass}>
        How bookings are shared
        <span className="text-red-600" aria-hidden="true">
          {" "}
          *
        </span>
      </legend>
      {SCHEDULING_TYPES.map((t, i) => (
        <label key={t.value} className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-200 p-3 has-[:checked]:border-blue-600 has-[:checked]:bg-blue-50">
          <input
            type="radio"
            name={field.name}
            value={t.value}
            ref={i === 0 ? ref : undefined}
            checked={field.value === t.value}
            onChange={() => field.onChange(t.value)}
            onBlur={field.onBlur}
            data-invalid={fieldState.error ? true : undefined}
            aria-describedby={`${id}-${t.value}`}
            className="mt-1 h-4 w-4 shrink-0"
          />
          <span className="flex flex-col">
            <span className="font-medium">{t.label}</span>
            <span id={`${id}-${t.value}`} className="text-sm text-slate-600">
              {t.hint}
            </span>
          </span>
        </label>
      ))}
      {fieldState.error && <FieldMessage id={problemId}>{fieldState.error.message}</FieldMessage>}
    </fieldset>
  );
}

function HostsField({ control, members }: { control: Control<EventTypeValues>; members: TeamMemberDto[] }) {
  const id = useId();
  const {
    field: { ref, ...field },
    fieldState,
  } = useController({ control, name: "hostIds" });
  const chosen = field.value;
  const hosts = possibleHosts(members);
  const invited = members.length - hosts.length;
  const problemId = `${id}-problem`;
  return (
    <fieldset className={groupClass}>
      <legend className={legendClass}>
        Hosts
        <span className="text-red-600" aria-hidden="true">
          {" "}
          *
        </span>
      </legend>
      <p className="text-sm text-slate-500">
        Each host&apos;s own hours, calendars and bookings decide when they are free.
        {invited > 0 ? ` Invited members can host once they accept.` : ""}
      </p>
      <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        {hosts.map((m, i) => (
          <li key={m.userId}>
            <label
              className={`flex items-center gap-3 rounded-md border p-3 has-[:checked]:border-blue-600 has-[:checked]:bg-blue-50 ${fieldState.error ? "border-red-500" : "border-slate-200"}`}
            >
              <input
                type="checkbox"
                name={field.name}
                value={m.userId}
                ref={i === 0 ? ref : undefined}
                checked={chosen.includes(m.userId)}
                onChange={(e) => field.onChange(e.target.checked ? [...chosen, m.userId] : chosen.filter((x) => x !== m.userId))}
                onBlur={field.onBlur}
                aria-invalid={Boolean(fieldState.error)}
                aria-describedby={fieldState.error ? problemId : undefined}
                className="h-4 w-4 shrink-0"
              />
              <span className="flex min-w-0 flex-col">
                <span className="truncate font-medium">{m.fullName}</span>
                <span className="truncate text-sm text-slate-600">@{m.username}</span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      {fieldState.error && <FieldMessage id={problemId}>{fieldState.error.message}</FieldMessage>}
    </fieldset>
  );
}

/** The team's section of the event-type form. */
export function TeamHostsSection({ control, members, className }: { control: Control<EventTypeValues>; members: TeamMemberDto[]; className: string }) {
  return (
    <section className={className}>
      <h2 className="text-lg font-semibold">Who hosts</h2>
      <SchedulingTypeField control={control} />
      <HostsField control={control} members={members} />
    </section>
  );
}
