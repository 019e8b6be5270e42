// Timezone choices for pickers, from the runtime's own IANA data (Intl): no zone list to keep.
// The service accepts every name luxon knows, aliases included (decisions §4); Intl lists only
// canonical names, so a stored alias (Asia/Calcutta) is added to the choices rather than lost.

export type ZoneOption = {
  zone: string;
  /** "UTC+01:00" at the moment the list was made. */
  offset: string;
  /** Minutes east of UTC, for sorting or display. */
  offsetMinutes: number;
  /** Lower-case text a search matches against: the name with and without underscores, and the offset. */
  search: string;
};

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function offsetFormatter(zone: string): Intl.DateTimeFormat | null {
  let f = formatters.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" });
    } catch {
      f = null; // a name this runtime does not know
    }
    formatters.set(zone, f);
  }
  return f;
}

/** Minutes east of UTC of `zone` at `at`, or null when the runtime does not know the zone. */
export function offsetMinutes(zone: string, at: Date = new Date()): number | null {
  const part = offsetFormatter(zone)
    ?.formatToParts(at)
    .find((p) => p.type === "timeZoneName")?.value;
  if (part === undefined) return null;
  // "GMT", "GMT+01:00", "GMT-09:30"
  const match = /^GMT(?:([+-])(\d{1,2})(?::?(\d{2}))?)?$/.exec(part);
  if (!match) return null;
  if (!match[1]) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === "-" ? -minutes : minutes;
}

/** "UTC+05:30", "UTC-03:00" (a plain hyphen, as people type it), "UTC+00:00" for UTC itself. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** The zone's current offset label, or "" for a name the runtime does not know. */
export function offsetLabel(zone: string, at: Date = new Date()): string {
  const minutes = offsetMinutes(zone, at);
  return minutes === null ? "" : formatOffset(minutes);
}

function option(zone: string, at: Date): ZoneOption {
  const minutes = offsetMinutes(zone, at);
  const offset = minutes === null ? "" : formatOffset(minutes);
  return {
    zone,
    offset,
    offsetMinutes: minutes ?? 0,
    search: `${zone} ${zone.replace(/_/g, " ")} ${offset}`.toLowerCase(),
  };
}

function supportedZones(): string[] {
  try {
    return typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  } catch {
    return [];
  }
}

let cache: { at: number; options: ZoneOption[] } | null = null;

/**
 * Every zone the runtime lists, UTC first, with `current` added when missing (an alias, or a
 * runtime without the list). Offsets are those of the moment; the list is kept for a minute.
 */
export function zoneOptions(current?: string, at: Date = new Date()): ZoneOption[] {
  if (!cache || Math.abs(at.getTime() - cache.at) > 60_000) {
    const zones = supportedZones().filter((z) => z !== "UTC");
    cache = { at: at.getTime(), options: ["UTC", ...zones].map((z) => option(z, at)) };
  }
  const options = cache.options;
  if (!current || options.some((o) => o.zone === current)) return options;
  return [option(current, at), ...options];
}

/**
 * The options matching every word of `query` (case-insensitive; "new york", "berlin", "+05:30"
 * and "utc-3" all work). Zones whose city starts with the query come first, then the rest in
 * list order.
 */
export function filterZones(options: ZoneOption[], query: string): ZoneOption[] {
  const q = query.trim().toLowerCase();
  if (!q) return options;
  const words = q.split(/\s+/).map(normaliseOffsetWord);
  const matches = options.filter((o) => words.every((w) => o.search.includes(w)));
  const city = (z: string) => (z.split("/").pop() ?? z).replace(/_/g, " ").toLowerCase();
  const first = matches.filter((o) => city(o.zone).startsWith(q) || o.zone.toLowerCase().startsWith(q));
  return first.length === 0 ? matches : [...first, ...matches.filter((o) => !first.includes(o))];
}

// "utc+1" or "+1" → "utc+01" so a short offset finds "UTC+01:00".
function normaliseOffsetWord(word: string): string {
  const m = /^(utc|gmt)?([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(word);
  if (!m) return word;
  const hours = m[3]!.padStart(2, "0");
  return `${m[1] ? "utc" : ""}${m[2]}${hours}${m[4] ? `:${m[4]}` : ""}`;
}

/** The browser's (or server's) own zone, e.g. for a sign-up form's default. */
export function localTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}
