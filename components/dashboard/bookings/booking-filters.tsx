"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { EventTypeOptions, type EventTypeGroup } from "@/components/dashboard/event-type-groups";
import { Field, inputClass } from "@/components/ui/field";
import type { BookingsState } from "@/lib/dashboard/bookings-url";

export type UpdateBookings = (change: Partial<BookingsState>, how: "push" | "replace") => void;

/** How long the search waits after the last keystroke: a list per word, not per letter. */
const SEARCH_DELAY_MS = 300;

/**
 * The search box: what is typed is the search once typing pauses (or at Enter), and the box
 * follows the address when Back or Clear filters changes it.
 */
function GuestSearch({ q, update }: { q: string | undefined; update: UpdateBookings }) {
  const [text, setText] = useState(q ?? "");
  const [seen, setSeen] = useState(q);
  if (seen !== q) {
    // The address changed under the box (Back, Clear filters): show its search, unless it is what was typed.
    setSeen(q);
    if ((q ?? "") !== text.trim()) setText(q ?? "");
  }
  useEffect(() => {
    const typed = text.trim() || undefined;
    if (typed === q) return;
    const timer = setTimeout(() => update({ q: typed, page: 1 }, "replace"), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, q, update]);
  return (
    <form
      role="search"
      className="col-span-2 sm:col-span-1"
      onSubmit={(e) => {
        e.preventDefault();
        update({ q: text.trim() || undefined, page: 1 }, "replace");
      }}
    >
      <Field label="Guest">
        {(p) => (
          <input
            {...p}
            type="search"
            value={text}
            maxLength={200}
            placeholder="Name or email"
            autoComplete="off"
            onChange={(e) => setText(e.target.value)}
            className={inputClass}
          />
        )}
      </Field>
    </form>
  );
}

/**
 * The filters above the list: a guest's name or email, one event type, a range of days. Each
 * change is kept in the address (see lib/dashboard/bookings-url.ts) and starts again at page 1.
 */
export function BookingFilters({
  state,
  groups,
  reversed,
  showClear,
  update,
  clear,
}: {
  state: BookingsState;
  groups: EventTypeGroup[];
  /** The range ends before it starts: said at "To", and no list is asked for. */
  reversed: boolean;
  showClear: boolean;
  update: UpdateBookings;
  clear: () => void;
}) {
  const listed = groups.some((g) => g.choices.some((c) => c.id === state.eventTypeId));
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-[minmax(0,3fr)_minmax(0,3fr)_minmax(0,2fr)_minmax(0,2fr)]">
        <GuestSearch q={state.q} update={update} />
        <div className="col-span-2 sm:col-span-1">
          <Field label="Event type">
            {(p) => (
              <select {...p} value={state.eventTypeId ?? ""} onChange={(e) => update({ eventTypeId: e.target.value || undefined, page: 1 }, "push")} className={inputClass}>
                <option value="">All event types</option>
                {/* An address naming an event type no longer listed (deleted, or a team left) still shows what it filters by. */}
                {state.eventTypeId && !listed && <option value={state.eventTypeId}>An event type no longer listed</option>}
                <EventTypeOptions groups={groups} />
              </select>
            )}
          </Field>
        </div>
        <Field label="From">
          {(p) => (
            <input {...p} type="date" value={state.from ?? ""} onChange={(e) => update({ from: e.target.value || undefined, page: 1 }, "replace")} className={inputClass} />
          )}
        </Field>
        <Field label="To" error={reversed ? "Must be on or after the From date" : undefined}>
          {(p) => (
            <input
              {...p}
              type="date"
              value={state.to ?? ""}
              min={state.from}
              onChange={(e) => update({ to: e.target.value || undefined, page: 1 }, "replace")}
              className={inputClass}
            />
          )}
        </Field>
      </div>
      {showClear && (
        <div>
          <Button variant="ghost" size="sm" onClick={clear}>
            Clear filters
          </Button>
        </div>
      )}
    </div>
  );
}
