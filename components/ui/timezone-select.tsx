"use client";

import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from "react";
import { filterZones, offsetLabel, zoneLabel, zoneOptions } from "@/lib/time/zones";
import { inputClass } from "./field";

type Props = {
  value: string;
  onChange: (zone: string) => void;
  /** From `Field`: the label points at this id. */
  id?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
  "aria-label"?: string;
  name?: string;
  disabled?: boolean;
  required?: boolean;
  className?: string;
  /** Its words in another language than English (the guest's pages); {query} is what was typed. */
  labels?: TimezoneSelectLabels;
  [data: `data-${string}`]: string | undefined;
};

export type TimezoneSelectLabels = {
  search: string;
  showAll: string;
  list: string;
  current: string;
  offsetUnknown: string;
  noMatch: string;
  /** The language zones are named in when the picker is closed (BCP 47; English when absent). */
  locale?: string;
};

const ENGLISH: TimezoneSelectLabels = {
  search: "Search a city, zone name or abbreviation",
  showAll: "Show all timezones",
  list: "Timezones",
  current: "(current)",
  offsetUnknown: "offset unknown",
  noMatch: "No timezone matches “{query}”. Try a city, a region or an offset such as +05:30.",
};

const subscribeNever = () => () => {};
const PAGE = 10;

/**
 * A searchable timezone picker: the ARIA 1.2 editable combobox with a list popup ("list
 * autocomplete with automatic selection"). Type part of a city, region, zone name, abbreviation
 * or offset ("berlin", "eastern", "IST", "PST", "+05:30"); ↑/↓ move, Enter picks, Escape closes and
 * restores the value. The list is the runtime's IANA zones under their current ids, by the names
 * people use, with their current offset, plus `value` when the list lacks it.
 */
export function TimezoneSelect({ value, onChange, id: idProp, className = "", labels = ENGLISH, ...rest }: Props) {
  const ownId = useId();
  const id = idProp ?? ownId;
  const listId = `${id}-zones`;
  const optionId = (i: number) => `${id}-zone-${i}`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  // null: not searching, the input shows the value. A string: what the person typed.
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(-1);

  // Offsets depend on the browser's clock and ICU data: computed in the browser only, so the
  // server-rendered markup (which has none) always matches the first client render.
  const currentOffset = useSyncExternalStore(subscribeNever, () => offsetLabel(value), () => "");
  const options = useMemo(() => (open ? zoneOptions(value) : []), [open, value]);
  const matches = useMemo(() => filterZones(options, query ?? ""), [options, query]);

  useEffect(() => {
    if (open && active >= 0) document.getElementById(optionId(active))?.scrollIntoView({ block: "nearest" });
    // optionId only depends on id
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, active, matches]);

  /** Opens the list at the current value; `search` null shows every zone. */
  function openList(search: string | null = query) {
    const list = filterZones(zoneOptions(value), search ?? "");
    const current = list.findIndex((o) => o.zone === value);
    setQuery(search);
    setActive(current >= 0 ? current : 0);
    setOpen(true);
  }

  function close() {
    setOpen(false);
    setQuery(null);
    setActive(-1);
  }

  function choose(zone: string) {
    onChange(zone);
    close();
    // Typing again replaces the chosen name rather than appending to it.
    requestAnimationFrame(() => inputRef.current?.select());
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    const last = matches.length - 1;
    switch (e.key) {
      case "ArrowDown":
        e.preventDefault();
        if (!open) openList();
        else setActive((a) => Math.min(a + 1, last));
        break;
      case "ArrowUp":
        e.preventDefault();
        if (!open) openList();
        else setActive((a) => Math.max(a - 1, 0));
        break;
      case "PageDown":
        if (open) {
          e.preventDefault();
          setActive((a) => Math.min(a + PAGE, last));
        }
        break;
      case "PageUp":
        if (open) {
          e.preventDefault();
          setActive((a) => Math.max(a - PAGE, 0));
        }
        break;
      case "Enter":
        // While the list is open, Enter picks; it never submits the surrounding form by accident.
        if (open) {
          e.preventDefault();
          const option = matches[active];
          if (option) choose(option.zone);
        }
        break;
      case "Escape":
        if (open || query !== null) {
          // Only this popup closes, not a dialog or menu around it.
          e.preventDefault();
          e.stopPropagation();
          close();
        }
        break;
    }
  }

  const showList = open && matches.length > 0;
  const activeOption = showList && active >= 0 && active < matches.length ? optionId(active) : undefined;

  return (
    <div className="relative">
      <input
        {...rest}
        ref={inputRef}
        id={id}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={activeOption}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        // Not searching, the field reads the zone as people call it ("Eastern Time (US & Canada)"),
        // never its id; what it holds and sends is the id.
        value={query ?? zoneLabel(value, undefined, labels.locale)}
        placeholder={labels.search}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={(e) => e.currentTarget.select()}
        onClick={() => {
          if (!open) openList();
        }}
        onBlur={() => {
          // A full name typed and left (Tab) counts as picked, as a select's typing would.
          const typed = query?.trim().toLowerCase();
          const exact = typed ? zoneOptions(value).find((o) => o.zone.toLowerCase() === typed) : undefined;
          if (exact && exact.zone !== value) onChange(exact.zone);
          close();
        }}
        onKeyDown={onKeyDown}
        className={`${inputClass} pr-28 ${className}`}
      />
      {query === null && currentOffset && (
        <span aria-hidden="true" className="pointer-events-none absolute top-1/2 right-9 -translate-y-1/2 text-sm text-slate-500">
          {currentOffset}
        </span>
      )}
      <button
        type="button"
        tabIndex={-1}
        aria-label={labels.showAll}
        aria-controls={listId}
        aria-expanded={showList}
        disabled={rest.disabled}
        // Keeps the focus in the input, so its blur does not close the list being opened.
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => {
          inputRef.current?.focus();
          if (open) close();
          else openList(null);
        }}
        className="absolute inset-y-0 right-0 flex w-9 items-center justify-center rounded-r-md text-slate-500 hover:text-slate-800"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
          <path d="M5.23 7.21a.75.75 0 0 1 1.06.02L10 11.17l3.71-3.94a.75.75 0 1 1 1.08 1.04l-4.25 4.5a.75.75 0 0 1-1.08 0l-4.25-4.5a.75.75 0 0 1 .02-1.06Z" />
        </svg>
      </button>
      <ul
        id={listId}
        role="listbox"
        aria-label={labels.list}
        hidden={!showList}
        onMouseDown={(e) => e.preventDefault()}
        className="absolute z-30 mt-1 max-h-64 w-full overflow-y-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg"
      >
        {showList &&
          matches.map((o, i) => (
            <li
              key={o.zone}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              onClick={() => choose(o.zone)}
              onMouseMove={() => i !== active && setActive(i)}
              className={`flex cursor-pointer items-baseline justify-between gap-3 px-3 py-1.5 ${
                i === active ? "bg-blue-600 text-white" : "text-slate-800"
              }`}
            >
              <span className={`flex min-w-0 flex-col break-words ${o.zone === value ? "font-semibold" : ""}`}>
                <span>
                  {o.name}
                  {o.zone === value && <span className="sr-only"> {labels.current}</span>}
                </span>
                {o.city !== o.name && (
                  <span className={`text-xs font-normal ${i === active ? "text-blue-100" : "text-slate-500"}`}> {o.zone.replace(/_/g, " ")}</span>
                )}
              </span>{" "}
              <span className={`shrink-0 tabular-nums ${i === active ? "text-blue-100" : "text-slate-500"}`}>({o.offset || labels.offsetUnknown})</span>
            </li>
          ))}
      </ul>
      <p aria-live="polite" className={open && matches.length === 0 ? "absolute z-30 mt-1 w-full rounded-md border border-slate-200 bg-white px-3 py-2 text-sm text-slate-600 shadow-lg" : "sr-only"}>
        {open && matches.length === 0 ? labels.noMatch.replace("{query}", query ?? "") : ""}
      </p>
    </div>
  );
}
