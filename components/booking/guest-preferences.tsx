"use client";

import { useId, useState, useSyncExternalStore } from "react";
import { TimezoneSelect } from "@/components/ui/timezone-select";
import { prefersHour12, weekStartOf } from "@/lib/time/month-grid";
import { fill } from "@/lib/i18n/fill";
import { localTimeZone } from "@/lib/time/zones";
import { CLOCK_KEY, clockValue, parseClock } from "@/lib/time/clock-preference";
import { useGuestText } from "./guest-i18n";

// How a guest reads times: their zone, a 12- or 24-hour clock, the first day of their week. The
// browser says all three (the server knows none of them, so it renders a placeholder of the same
// size); the guest may change the first two, and the clock they choose is remembered.

type BrowserPreferences = { zone: string; hour12: boolean; weekStart: number };

const subscribeNever = () => () => {};
let detected: BrowserPreferences | undefined;

function storedClock(): boolean | undefined {
  try {
    return parseClock(window.localStorage.getItem(CLOCK_KEY));
  } catch {
    return undefined; // storage refused (a third-party iframe, private mode)
  }
}

function storeClock(hour12: boolean) {
  // The cookie too: the guest's manage and cancel pages are rendered on the server, on this clock.
  document.cookie = `${CLOCK_KEY}=${clockValue(hour12)}; path=/; max-age=${400 * 24 * 3600}; samesite=lax`;
  try {
    window.localStorage.setItem(CLOCK_KEY, clockValue(hour12));
  } catch {
    // remembered for this page only
  }
}

// Read once per page: a stable object, as useSyncExternalStore wants.
function browserPreferences(): BrowserPreferences {
  detected ??= { zone: localTimeZone(), hour12: storedClock() ?? prefersHour12(undefined), weekStart: weekStartOf(undefined) };
  return detected;
}

export type GuestPreferences = BrowserPreferences & { setZone: (zone: string) => void; setHour12: (hour12: boolean) => void };

/** The guest's reading preferences, or null during the server render and hydration. */
export function useGuestPreferences(initialZone?: string): GuestPreferences | null {
  const browser = useSyncExternalStore(subscribeNever, browserPreferences, () => null);
  const [zone, setZone] = useState<string | null>(null);
  const [hour12, setHour12] = useState<boolean | null>(null);
  if (!browser) return null;
  return {
    zone: zone ?? initialZone ?? browser.zone,
    hour12: hour12 ?? browser.hour12,
    weekStart: browser.weekStart,
    setZone,
    setHour12: (value) => {
      setHour12(value);
      storeClock(value);
    },
  };
}

/**
 * The timezone picker and the clock switch, above the times they govern. Until the browser has
 * said the guest's preferences, `shown` is what the times below are in (the server's preview, in
 * the host's zone): the same box shows that zone, and the line under it says whose it is.
 */
export function TimePreferences({
  preferences,
  hostTimezone,
  shown,
}: {
  preferences: GuestPreferences | null;
  hostTimezone?: string;
  shown?: { zone: string; hour12: boolean };
}) {
  const zoneId = useId();
  const { m } = useGuestText();
  const note = preferences
    ? preferences.zone !== hostTimezone
      ? fill(m.hostZoneNote, { zone: hostTimezone ?? "" })
      : ""
    : shown
      ? m.previewZoneNote
      : "";
  const zoneLabels = {
    search: m.zoneSearch,
    showAll: m.zoneShowAll,
    list: m.zoneList,
    current: m.zoneCurrent,
    offsetUnknown: m.zoneOffsetUnknown,
    noMatch: m.zoneNoMatch,
  };
  return (
    <div className="flex flex-wrap items-end gap-x-4 gap-y-2">
      <div className="flex min-w-0 flex-1 basis-56 flex-col gap-1">
        <label htmlFor={zoneId} className="text-sm font-medium text-slate-700">
          {m.timezone}
        </label>
        {preferences ? (
          <TimezoneSelect id={zoneId} value={preferences.zone} onChange={preferences.setZone} labels={zoneLabels} />
        ) : (
          // The same box, disabled, until the browser has said its zone.
          <input
            id={zoneId}
            disabled
            readOnly
            value={shown?.zone ?? ""}
            className="h-[2.625rem] w-full rounded-md border border-slate-200 bg-slate-50 px-3 text-slate-600"
          />
        )}
      </div>
      <ClockSwitch label={m.clock} hour12={preferences?.hour12 ?? shown?.hour12 ?? null} disabled={!preferences} onChange={(h) => preferences?.setHour12(h)} />
      {hostTimezone && (
        // Its line is kept while empty: the zone is known only once the browser has said it.
        <p className="h-4 w-full truncate text-xs text-slate-500">{note}</p>
      )}
    </div>
  );
}

/** 12 h or 24 h: two radio buttons that look like a segmented switch. */
function ClockSwitch({ label, hour12, disabled, onChange }: { label: string; hour12: boolean | null; disabled: boolean; onChange: (hour12: boolean) => void }) {
  const name = useId();
  return (
    <div className="flex flex-col gap-1">
      <span id={`${name}-label`} className="text-sm font-medium text-slate-700">
        {label}
      </span>
      <div role="radiogroup" aria-labelledby={`${name}-label`} className="inline-flex rounded-md border border-slate-300 bg-white p-0.5">
        {[true, false].map((h) => (
          <label key={String(h)} className="relative cursor-pointer">
            <input
              type="radio"
              name={name}
              checked={hour12 === h}
              disabled={disabled}
              onChange={() => onChange(h)}
              className="peer absolute inset-0 opacity-0"
            />
            <span className="block rounded px-3 py-[0.4375rem] text-sm text-slate-700 peer-checked:bg-blue-600 peer-checked:font-medium peer-checked:text-white peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-blue-600">
              {h ? "12h" : "24h"}
            </span>
          </label>
        ))}
      </div>
    </div>
  );
}
