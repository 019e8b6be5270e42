"use client";

import { useId, useRef, useState, useSyncExternalStore } from "react";
import { TimezoneSelect } from "@/components/ui/timezone-select";
import { prefersHour12, weekStartOf } from "@/lib/time/month-grid";
import { fill } from "@/lib/i18n/fill";
import { localTimeZone, zoneName } from "@/lib/time/zones";
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

function useZoneLabels() {
  const { m, intl } = useGuestText();
  return { locale: intl, search: m.zoneSearch, showAll: m.zoneShowAll, list: m.zoneList, current: m.zoneCurrent, offsetUnknown: m.zoneOffsetUnknown, noMatch: m.zoneNoMatch };
}

/**
 * The one line under a guest's calendar (booking and reschedule pages): the zone the times are in, by its name (tap to
 * change it: the searchable picker opens under the line), and the clock. Until the browser has
 * said the guest's zone (the server's render) it says it is finding it, in the same height.
 */
export function ZoneLine({
  preferences,
  hostTimezone,
  open: openProp,
  onOpenChange,
}: {
  preferences: GuestPreferences | null;
  hostTimezone?: string;
  /**
   * Whether the picker is open, held by a page whose calendar is drawn twice (the first paint's
   * preview, then the live one): the line is mounted anew, and a picker the guest opened meanwhile stays open.
   */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  const { m, intl } = useGuestText();
  const zoneLabels = useZoneLabels();
  const [ownOpen, setOwnOpen] = useState(false);
  const open = openProp ?? ownOpen;
  const setOpen = onOpenChange ?? setOwnOpen;
  const panelId = useId();
  const zoneId = useId();
  const lineButton = useRef<HTMLButtonElement>(null);
  if (!preferences) {
    return (
      <p data-testid="zone-line" className="flex h-10 items-center gap-2 text-sm text-slate-500">
        <GlobeIcon />
        {m.zoneFinding}
      </p>
    );
  }
  const name = zoneName(preferences.zone, undefined, intl);
  return (
    <div data-testid="zone-line" className="flex flex-col gap-2">
      <div className="flex min-h-10 items-center gap-3">
        <button
          type="button"
          ref={lineButton}
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => {
            setOpen(!open);
            if (!open) requestAnimationFrame(() => document.getElementById(zoneId)?.focus());
          }}
          className="flex min-w-0 flex-1 items-center gap-2 rounded-md py-1 text-left text-sm text-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        >
          <GlobeIcon />
          <span className="min-w-0">
            <span className="sr-only">{m.timezone}: </span>
            <span className="font-medium text-slate-900">{name}</span> <span className="whitespace-nowrap text-blue-700 underline underline-offset-2">{m.zoneChange}</span>
          </span>
        </button>
        <ClockSwitch label={m.clock} labelHidden hour12={preferences.hour12} disabled={false} onChange={preferences.setHour12} />
      </div>
      <div id={panelId} hidden={!open} className={open ? "flex flex-col gap-1" : "hidden"}>
        <label htmlFor={zoneId} className="text-sm font-medium text-slate-700">
          {m.timezone}
        </label>
        <TimezoneSelect
          id={zoneId}
          value={preferences.zone}
          onChange={(zone) => {
            preferences.setZone(zone);
            // Chosen: the line says the new zone, and takes the focus back from the box it hides.
            setOpen(false);
            requestAnimationFrame(() => lineButton.current?.focus());
          }}
          labels={zoneLabels}
        />
        {hostTimezone && preferences.zone !== hostTimezone && <p className="text-xs text-slate-500">{fill(m.hostZoneNote, { zone: zoneName(hostTimezone, undefined, intl) })}</p>}
      </div>
    </div>
  );
}

function GlobeIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.5" className="size-4 shrink-0 text-slate-500">
      <circle cx="10" cy="10" r="7.25" />
      <ellipse cx="10" cy="10" rx="3" ry="7.25" />
      <path d="M2.75 10h14.5" />
    </svg>
  );
}

/** 12 h or 24 h: two radio buttons that look like a segmented switch. */
function ClockSwitch({ label, labelHidden = false, hour12, disabled, onChange }: { label: string; labelHidden?: boolean; hour12: boolean | null; disabled: boolean; onChange: (hour12: boolean) => void }) {
  const name = useId();
  return (
    <div className="flex flex-col gap-1">
      <span id={`${name}-label`} className={labelHidden ? "sr-only" : "text-sm font-medium text-slate-700"}>
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
