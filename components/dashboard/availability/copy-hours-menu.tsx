"use client";

import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { CopyIcon } from "@/components/ui/icons";
import { dayName, MONDAY_FIRST } from "@/lib/forms/availability";

/**
 * "Copy Monday's hours to …": a disclosure button and a small panel of day checkboxes. The
 * panel closes on Escape, on Cancel, or when the focus leaves it; focus comes back to the button.
 */
export function CopyHoursMenu({ day, onCopy }: { day: number; onCopy: (targets: number[]) => void }) {
  const [open, setOpen] = useState(false);
  const [targets, setTargets] = useState<number[]>([]);
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const allRef = useRef<HTMLInputElement>(null);
  const others = MONDAY_FIRST.filter((d) => d !== day);
  const name = dayName(day);
  const all = targets.length === others.length;

  useEffect(() => {
    if (open) panelRef.current?.querySelector<HTMLInputElement>("input")?.focus();
  }, [open]);
  useEffect(() => {
    if (allRef.current) allRef.current.indeterminate = targets.length > 0 && !all;
  }, [targets, all]);

  function close(returnFocus: boolean) {
    setOpen(false);
    setTargets([]);
    if (returnFocus) buttonRef.current?.focus();
  }

  return (
    <div
      className="relative"
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          e.preventDefault();
          close(true);
        }
      }}
      onBlur={(e) => {
        if (open && !e.currentTarget.contains(e.relatedTarget as Node | null)) close(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={`Copy ${name}'s hours to other days`}
        title="Copy to other days"
        onClick={() => (open ? close(false) : setOpen(true))}
        className="rounded-md p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600 aria-expanded:bg-slate-100"
      >
        <CopyIcon className="size-4" />
      </button>
      {open && (
        <div
          ref={panelRef}
          id={panelId}
          tabIndex={-1}
          className="absolute top-full right-0 z-20 mt-1 w-60 rounded-lg border border-slate-200 bg-white p-3 shadow-lg focus:outline-none"
        >
          <fieldset>
            <legend className="mb-2 text-sm font-medium text-slate-900">Copy {name}&apos;s hours to</legend>
            <label className="flex items-center gap-2 border-b border-slate-100 py-1.5 text-sm">
              <input
                ref={allRef}
                type="checkbox"
                checked={all}
                onChange={() => setTargets(all ? [] : [...others])}
                className="size-4 accent-blue-600"
              />
              Select all
            </label>
            {others.map((d) => (
              <label key={d} className="flex items-center gap-2 py-1.5 text-sm">
                <input
                  type="checkbox"
                  checked={targets.includes(d)}
                  onChange={(e) => setTargets((t) => (e.target.checked ? [...t, d] : t.filter((x) => x !== d)))}
                  className="size-4 accent-blue-600"
                />
                {dayName(d)}
              </label>
            ))}
            <div className="mt-3 flex justify-end gap-2">
              <Button variant="secondary" size="sm" onClick={() => close(true)}>
                Cancel
              </Button>
              <Button
                size="sm"
                disabled={targets.length === 0}
                onClick={() => {
                  onCopy(targets);
                  close(true);
                }}
              >
                Apply
              </Button>
            </div>
          </fieldset>
        </div>
      )}
    </div>
  );
}
