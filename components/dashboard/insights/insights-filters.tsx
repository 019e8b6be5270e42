"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { buttonClass } from "@/components/ui/button";
import { EventTypeOptions, type EventTypeGroup } from "@/components/dashboard/event-type-groups";
import { Field, inputClass } from "@/components/ui/field";
import { INSIGHTS_MAX_DAYS } from "@/lib/schemas/insights";
import { insightsHref, QUICK_RANGES, quickRange, quickRangeOf, type InsightsFilter } from "@/lib/dashboard/insights-filter";

// The Insights page's filters: quick ranges (links), the dates, an event type and a team. A
// change is a new address (the page is the server's again, with its figures in the first HTML),
// so Back, a reload and a shared link show the same view. Without script the form still works:
// it is a GET of the same page.

/** Why a range cannot be shown, said at "To"; undefined when it can. */
function rangeProblem(from: string, to: string): string | undefined {
  if (!from || !to) return "Choose both dates";
  if (to < from) return "Must be on or after the From date";
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  return days > INSIGHTS_MAX_DAYS ? `At most ${INSIGHTS_MAX_DAYS} days at a time` : undefined;
}

export function InsightsFilters({
  filter,
  today,
  groups,
  teams,
}: {
  filter: InsightsFilter;
  today: string;
  groups: EventTypeGroup[];
  teams: { id: string; name: string }[];
}) {
  const router = useRouter();
  const [problem, setProblem] = useState<string>();
  const current = quickRangeOf(filter, today);
  const listed = groups.some((g) => g.choices.some((c) => c.id === filter.eventTypeId));

  const show = (form: HTMLFormElement) => {
    const data = new FormData(form);
    const read = (name: string) => String(data.get(name) ?? "");
    const next = { from: read("from"), to: read("to"), eventTypeId: read("eventTypeId"), teamId: read("teamId") };
    const wrong = rangeProblem(next.from, next.to);
    setProblem(wrong);
    if (!wrong) router.push(insightsHref(next), { scroll: false });
  };
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    show(e.currentTarget);
  };

  return (
    <div className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <nav aria-label="Quick ranges">
        <ul className="flex flex-wrap gap-2">
          {QUICK_RANGES.map((r) => (
            <li key={r.id}>
              <Link
                href={insightsHref({ ...filter, ...quickRange(r.id, today) })}
                scroll={false}
                aria-current={r.id === current ? "true" : undefined}
                className={`${buttonClass("secondary", "sm")} aria-[current=true]:border-blue-600 aria-[current=true]:bg-blue-50 aria-[current=true]:text-blue-800`}
              >
                {r.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {/* Keyed by the view, so a quick range or Back shows its own dates in the fields. */}
      <form
        key={insightsHref(filter)}
        method="get"
        action="/dashboard/insights"
        onSubmit={onSubmit}
        aria-label="Filters"
        className="grid grid-cols-2 items-start gap-3 sm:items-end sm:grid-cols-[minmax(0,2fr)_minmax(0,2fr)_minmax(0,3fr)_minmax(0,3fr)_auto]"
      >
        <Field label="From">{(p) => <input {...p} type="date" name="from" defaultValue={filter.from} className={inputClass} />}</Field>
        <Field label="To" error={problem}>
          {(p) => <input {...p} type="date" name="to" defaultValue={filter.to} className={inputClass} />}
        </Field>
        <div className="col-span-2 sm:col-span-1">
          <Field label="Event type">
            {(p) => (
              <select {...p} name="eventTypeId" defaultValue={filter.eventTypeId ?? ""} onChange={(e) => show(e.currentTarget.form!)} className={inputClass}>
                <option value="">All event types</option>
                {filter.eventTypeId && !listed && <option value={filter.eventTypeId}>An event type no longer listed</option>}
                <EventTypeOptions groups={groups} />
              </select>
            )}
          </Field>
        </div>
        {teams.length > 0 && (
          <div className="col-span-2 sm:col-span-1">
            <Field label="Team">
              {(p) => (
                <select {...p} name="teamId" defaultValue={filter.teamId ?? ""} onChange={(e) => show(e.currentTarget.form!)} className={inputClass}>
                  <option value="">All your bookings</option>
                  {filter.teamId && !teams.some((t) => t.id === filter.teamId) && <option value={filter.teamId}>A team you are no longer in</option>}
                  {teams.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
        )}
        <div className="col-span-2 sm:col-span-1">
          <button type="submit" className={`${buttonClass("secondary")} w-full sm:w-auto`}>
            Show
          </button>
        </div>
      </form>
    </div>
  );
}
