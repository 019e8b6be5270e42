"use client";

import { useRef, useState } from "react";
import { useFieldErrors } from "@/components/ui/use-field-errors";
import { useFocusAfterRender } from "@/components/ui/use-focus-after-render";
import type { AvailabilityDto } from "@/lib/browser/api-client/host";
import {
  copyDay,
  dayName,
  draftFrom,
  newKey,
  nextInterval,
  validate,
  weeklyHoursOf,
  type AvailabilityDraft,
  type IntervalDraft,
  type OverrideDraft,
  type Problems,
  type Spot,
} from "@/lib/availability-draft";
import type { OverrideActions } from "./date-overrides";
import type { WeeklyActions } from "./weekly-hours";

// An override switched to "available" starts from its weekday's weekly hours, or 09:00–17:00.
function startingHours(d: AvailabilityDraft, date: string): IntervalDraft[] {
  const weekly = date ? weeklyHoursOf(d, date) : [];
  return weekly.length > 0 ? weekly : [nextInterval([])];
}
const spotsOf = (intervals: IntervalDraft[]): Spot[] => intervals.flatMap((i) => [`interval:${i.key}:startTime` as const, `interval:${i.key}:endTime` as const]);

/** The first row with a problem, top to bottom: the rows carry their spot in `data-spot`. */
const firstProblem = (root: HTMLElement, problems: Problems) =>
  [...root.querySelectorAll<HTMLElement>("[data-spot]")].find((el) => problems[el.dataset.spot as Spot] !== undefined) ?? null;

/**
 * The draft being edited and every edit the editor offers. After an edit, a problem shown at what
 * it touched goes as soon as the row is right (the page's own check of the new draft), and the
 * focus moves where the person types next when rows come or go.
 */
export function useAvailabilityDraft(initial: AvailabilityDto) {
  const [draft, setDraft] = useState(() => draftFrom(initial));
  const formRef = useRef<HTMLFormElement>(null);
  const problems = useFieldErrors<Spot>(formRef, firstProblem);
  // Said to screen readers after a change they cannot see happen (a copy to other days).
  const [announcement, setAnnouncement] = useState("");
  const focusSoon = useFocusAfterRender();
  const focusNext = (selector: string) => focusSoon(() => document.querySelector<HTMLElement>(selector));

  /** Applies an edit; the problems it fixed go away (see reviseErrors in lib/forms/field-errors.ts). */
  function edit(change: (d: AvailabilityDraft) => AvailabilityDraft, touched: Spot[] = []) {
    const next = change(draft);
    setDraft(next);
    problems.edited(validate(next), touched);
  }

  const setDay = (d: AvailabilityDraft, day: number, fn: (x: AvailabilityDraft["days"][number]) => AvailabilityDraft["days"][number]) => ({
    ...d,
    days: d.days.map((x, i) => (i === day ? fn(x) : x)),
  });
  const setOverride = (d: AvailabilityDraft, key: string, fn: (o: OverrideDraft) => OverrideDraft) => ({
    ...d,
    overrides: d.overrides.map((o) => (o.key === key ? fn(o) : o)),
  });
  const intervalsOfDay = (day: number) => draft.days[day]!.intervals;
  const overrideOf = (key: string) => draft.overrides.find((o) => o.key === key)!;

  const weekly: WeeklyActions = {
    toggle: (day, on) =>
      edit(
        (d) => setDay(d, day, (x) => ({ enabled: on, intervals: on && x.intervals.length === 0 ? [nextInterval([])] : x.intervals })),
        spotsOf(intervalsOfDay(day)),
      ),
    add: (day) => {
      const added = nextInterval(intervalsOfDay(day));
      focusNext(`[data-spot="interval:${added.key}:startTime"]`);
      edit((d) => setDay(d, day, (x) => ({ ...x, intervals: [...x.intervals, added] })));
    },
    change: (day, key, change) =>
      edit((d) => setDay(d, day, (x) => ({ ...x, intervals: x.intervals.map((i) => (i.key === key ? { ...i, ...change } : i)) })), [
        `interval:${key}:startTime`,
        `interval:${key}:endTime`,
      ]),
    remove: (day, key) => {
      const left = intervalsOfDay(day).filter((i) => i.key !== key);
      // The last interval gone, the day is off; the focus stays on that day.
      focusNext(left.length > 0 ? `[data-spot="interval:${left.at(-1)!.key}:startTime"]` : `#day-${day}`);
      edit((d) => setDay(d, day, () => ({ enabled: left.length > 0, intervals: left })), [`interval:${key}:startTime`, `interval:${key}:endTime`]);
    },
    copy: (day, targets) => {
      edit(
        (d) => copyDay(d, day, targets),
        targets.flatMap((t) => spotsOf(intervalsOfDay(t))),
      );
      const names = [...targets].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7)).map((t) => dayName(t));
      setAnnouncement(`Copied ${dayName(day)}'s hours to ${names.join(", ")}.`);
    },
  };

  const overrides: OverrideActions = {
    add: () => {
      const added: OverrideDraft = { key: newKey(), date: "", available: false, intervals: [] };
      focusNext(`[data-spot="override:${added.key}:date"]`);
      edit((d) => ({ ...d, overrides: [...d.overrides, added] }));
    },
    setDate: (key, date) => edit((d) => setOverride(d, key, (o) => ({ ...o, date })), [`override:${key}:date`]),
    setAvailable: (key, available) =>
      edit(
        (d) =>
          setOverride(d, key, (o) => ({
            ...o,
            available,
            intervals: available && o.intervals.length === 0 ? startingHours(d, o.date) : o.intervals,
          })),
        [`override:${key}:intervals`],
      ),
    addInterval: (key) => {
      const added = nextInterval(overrideOf(key).intervals);
      focusNext(`[data-spot="interval:${added.key}:startTime"]`);
      edit((d) => setOverride(d, key, (o) => ({ ...o, intervals: [...o.intervals, added] })), [`override:${key}:intervals`]);
    },
    changeInterval: (key, interval, change) =>
      edit((d) => setOverride(d, key, (o) => ({ ...o, intervals: o.intervals.map((i) => (i.key === interval ? { ...i, ...change } : i)) })), [
        `interval:${interval}:startTime`,
        `interval:${interval}:endTime`,
      ]),
    removeInterval: (key, interval) => {
      const left = overrideOf(key).intervals.filter((i) => i.key !== interval);
      focusNext(left.length > 0 ? `[data-spot="interval:${left.at(-1)!.key}:startTime"]` : `[data-spot="override:${key}:intervals"]`);
      edit((d) => setOverride(d, key, (o) => ({ ...o, intervals: left })), [`interval:${interval}:startTime`, `interval:${interval}:endTime`]);
    },
    remove: (key) => {
      focusNext("#add-override");
      edit((d) => ({ ...d, overrides: d.overrides.filter((o) => o.key !== key) }), [
        `override:${key}:date`,
        `override:${key}:intervals`,
        ...spotsOf(overrideOf(key).intervals),
      ]);
    },
  };

  return { formRef, draft, setDraft, problems, announcement, edit, weekly, overrides };
}
