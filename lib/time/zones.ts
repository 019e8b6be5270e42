// Timezone choices for pickers, from the runtime's own IANA data (Intl): no zone list to keep.
// The service accepts every name luxon knows, aliases included (decisions §4); Intl lists only
// canonical names, so a stored alias (Asia/Calcutta) is added to the choices rather than lost.

export type ZoneOption = {
  zone: string;
  /** What people call it: "Eastern Time (US & Canada)", "India Standard Time", "Central European Time". */
  name: string;
  /** The place in the zone's id, readable: "New York", "Kolkata", "Ho Chi Minh". */
  city: string;
  /** "UTC+01:00" at the moment the list was made. */
  offset: string;
  /** Minutes east of UTC, for sorting or display. */
  offsetMinutes: number;
  /** Lower-case text a search matches against: id, city, names, abbreviations, offset, former ids. */
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

// ICU (and so every browser's Intl) still names some zones by ids IANA has since renamed: a
// browser in India reports Asia/Calcutta. The current ids are what people read and what the
// service stores; the old ones stay searchable. Both are valid everywhere (decisions §4).
const CURRENT_IDS: Record<string, string> = {
  "Asia/Calcutta": "Asia/Kolkata",
  "Europe/Kiev": "Europe/Kyiv",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Rangoon": "Asia/Yangon",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "America/Godthab": "America/Nuuk",
  "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
  "America/Catamarca": "America/Argentina/Catamarca",
  "America/Cordoba": "America/Argentina/Cordoba",
  "America/Jujuy": "America/Argentina/Jujuy",
  "America/Mendoza": "America/Argentina/Mendoza",
  "America/Indianapolis": "America/Indiana/Indianapolis",
  "America/Louisville": "America/Kentucky/Louisville",
  "Pacific/Truk": "Pacific/Chuuk",
  "Pacific/Ponape": "Pacific/Pohnpei",
  "Pacific/Enderbury": "Pacific/Kanton",
  "Asia/Dacca": "Asia/Dhaka",
  "Asia/Thimbu": "Asia/Thimphu",
  "Asia/Ulan_Bator": "Asia/Ulaanbaatar",
  "Africa/Asmera": "Africa/Asmara",
  "US/Eastern": "America/New_York",
  "US/Central": "America/Chicago",
  "US/Mountain": "America/Denver",
  "US/Pacific": "America/Los_Angeles",
  "Etc/UTC": "UTC",
  "Etc/GMT": "UTC",
  GMT: "UTC",
};
const FORMER_IDS = new Map<string, string[]>();
for (const [old, current] of Object.entries(CURRENT_IDS)) FORMER_IDS.set(current, [...(FORMER_IDS.get(current) ?? []), old]);

/** The zone's current IANA id: `Asia/Calcutta` → `Asia/Kolkata`; any other name as it is. */
export function currentZoneId(zone: string): string {
  return CURRENT_IDS[zone] ?? zone;
}

// The names the US and Canada zones go by in calendar apps (Calendly's, Google's), and the
// abbreviations people type. Intl gives every other zone its generic name ("Central European
// Time"); its short names are offsets ("GMT+1") outside the Americas, so common ones are added.
const KNOWN: Record<string, { name?: string; abbreviations: string[] }> = {
  "America/New_York": { name: "Eastern Time (US & Canada)", abbreviations: ["ET", "EST", "EDT"] },
  "America/Chicago": { name: "Central Time (US & Canada)", abbreviations: ["CT", "CST", "CDT"] },
  "America/Denver": { name: "Mountain Time (US & Canada)", abbreviations: ["MT", "MST", "MDT"] },
  "America/Phoenix": { name: "Arizona (Mountain Standard Time)", abbreviations: ["MST"] },
  "America/Los_Angeles": { name: "Pacific Time (US & Canada)", abbreviations: ["PT", "PST", "PDT"] },
  "America/Anchorage": { name: "Alaska Time", abbreviations: ["AKST", "AKDT"] },
  "Pacific/Honolulu": { name: "Hawaii Time", abbreviations: ["HST"] },
  "America/Halifax": { name: "Atlantic Time (Canada)", abbreviations: ["AST", "ADT"] },
  "America/St_Johns": { name: "Newfoundland Time", abbreviations: ["NST", "NDT"] },
  "Europe/London": { name: "United Kingdom Time", abbreviations: ["GMT", "BST"] },
  "Europe/Dublin": { abbreviations: ["GMT", "IST"] },
  "Europe/Lisbon": { abbreviations: ["WET", "WEST"] },
  "Europe/Berlin": { abbreviations: ["CET", "CEST"] },
  "Europe/Paris": { abbreviations: ["CET", "CEST"] },
  "Europe/Madrid": { abbreviations: ["CET", "CEST"] },
  "Europe/Rome": { abbreviations: ["CET", "CEST"] },
  "Europe/Amsterdam": { abbreviations: ["CET", "CEST"] },
  "Europe/Brussels": { abbreviations: ["CET", "CEST"] },
  "Europe/Vienna": { abbreviations: ["CET", "CEST"] },
  "Europe/Zurich": { abbreviations: ["CET", "CEST"] },
  "Europe/Stockholm": { abbreviations: ["CET", "CEST"] },
  "Europe/Warsaw": { abbreviations: ["CET", "CEST"] },
  "Europe/Athens": { abbreviations: ["EET", "EEST"] },
  "Europe/Helsinki": { abbreviations: ["EET", "EEST"] },
  "Europe/Kyiv": { abbreviations: ["EET", "EEST"] },
  "Europe/Moscow": { abbreviations: ["MSK"] },
  "Asia/Kolkata": { name: "India Standard Time", abbreviations: ["IST"] },
  "Asia/Tokyo": { abbreviations: ["JST"] },
  "Asia/Seoul": { abbreviations: ["KST"] },
  "Asia/Shanghai": { name: "China Standard Time", abbreviations: ["CST"] },
  "Asia/Singapore": { abbreviations: ["SGT"] },
  "Asia/Dubai": { abbreviations: ["GST"] },
  "Australia/Sydney": { abbreviations: ["AEST", "AEDT"] },
  "Australia/Melbourne": { abbreviations: ["AEST", "AEDT"] },
  "Australia/Brisbane": { abbreviations: ["AEST"] },
  "Australia/Perth": { abbreviations: ["AWST"] },
  "Australia/Adelaide": { abbreviations: ["ACST", "ACDT"] },
  "Pacific/Auckland": { abbreviations: ["NZST", "NZDT"] },
  "America/Sao_Paulo": { abbreviations: ["BRT"] },
  UTC: { name: "Coordinated Universal Time", abbreviations: ["UTC", "GMT", "Z"] },
};

const genericFormatters = new Map<string, Intl.DateTimeFormat | null>();

/** Intl's generic name of the zone ("Central European Time"; in German "Mitteleuropäische Zeit"), or "". */
function genericName(zone: string, at: Date, locale = "en-US"): string {
  const key = `${locale}|${zone}`;
  let f = genericFormatters.get(key);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: "longGeneric" });
    } catch {
      f = null;
    }
    genericFormatters.set(key, f);
  }
  const name = f?.formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? "";
  // Where CLDR has no name it gives an offset ("GMT+03:00"): no name at all is better.
  return /^GMT[+-]?/.test(name) ? "" : name;
}

/** "America/Argentina/Buenos_Aires" → "Buenos Aires". */
export function cityOf(zone: string): string {
  return (zone.split("/").pop() ?? zone).replace(/_/g, " ");
}

/**
 * What a zone is called: the known name, else Intl's generic one, else its city. In a language
 * other than English (`locale`, a BCP 47 tag): Intl's generic name in that language, else the English one.
 */
export function zoneName(zone: string, at: Date = new Date(), locale?: string): string {
  const id = currentZoneId(zone);
  if (locale && !/^en\b/i.test(locale)) {
    const local = genericName(id, at, locale);
    if (local) return local;
  }
  return KNOWN[id]?.name ?? (genericName(id, at) || cityOf(id));
}

/**
 * A zone in one line, as a closed picker shows it: its name, with its city where the name is
 * shared by many ("Central European Time – Berlin"); a well-known name alone ("Eastern Time
 * (US & Canada)"). Never the id. In `locale`'s language where Intl has the name.
 */
export function zoneLabel(zone: string, at: Date = new Date(), locale?: string): string {
  const id = currentZoneId(zone);
  const name = zoneName(id, at, locale);
  const city = cityOf(id);
  return KNOWN[id]?.name || name.includes(city) || id === "UTC" ? name : `${name} – ${city}`;
}

function option(zone: string, at: Date): ZoneOption {
  const minutes = offsetMinutes(zone, at);
  const offset = minutes === null ? "" : formatOffset(minutes);
  const name = zoneName(zone, at);
  const city = cityOf(zone);
  const words = [zone, zone.replace(/_/g, " "), name, offset, ...(KNOWN[zone]?.abbreviations ?? []), ...(FORMER_IDS.get(zone) ?? [])];
  return { zone, name, city, offset, offsetMinutes: minutes ?? 0, search: words.join(" ").toLowerCase() };
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
    // Current ids only (Asia/Kolkata, not ICU's Asia/Calcutta), each once.
    const zones = [...new Set(supportedZones().map(currentZoneId))].filter((z) => z !== "UTC");
    cache = { at: at.getTime(), options: ["UTC", ...zones].map((z) => option(z, at)) };
  }
  const options = cache.options;
  if (!current || options.some((o) => o.zone === current)) return options;
  return [option(current, at), ...options];
}

/**
 * The options matching every word of `query` (case-insensitive; "new york", "berlin", "eastern",
 * "IST", "calcutta", "+05:30" and "utc-3" all work), best matches first, then list order.
 */
export function filterZones(options: ZoneOption[], query: string): ZoneOption[] {
  const q = query.trim().toLowerCase();
  if (!q) return options;
  const words = q.split(/\s+/).map(normaliseOffsetWord);
  const matches = options.filter((o) => words.every((w) => o.search.includes(w)));
  // Best first: an abbreviation typed whole (PST), a city or id that starts with it (New York),
  // a well-known zone whose name does (Eastern Time (US & Canada)), any name that does; then the rest.
  const rank = (o: ZoneOption) => {
    if ((KNOWN[o.zone]?.abbreviations ?? []).some((a) => a.toLowerCase() === q)) return 0;
    if (o.city.toLowerCase().startsWith(q) || o.zone.toLowerCase().startsWith(q)) return 1;
    if ((FORMER_IDS.get(o.zone) ?? []).some((f) => cityOf(f).toLowerCase().startsWith(q))) return 1;
    if (o.name.toLowerCase().startsWith(q)) return KNOWN[o.zone] ? 2 : 3;
    return 4;
  };
  return matches.map((o, i) => ({ o, i, r: rank(o) })).sort((a, b) => a.r - b.r || a.i - b.i).map(({ o }) => o);
}

// "utc+1" or "+1" → "utc+01" so a short offset finds "UTC+01:00".
function normaliseOffsetWord(word: string): string {
  const m = /^(utc|gmt)?([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(word);
  if (!m) return word;
  const hours = m[3]!.padStart(2, "0");
  return `${m[1] ? "utc" : ""}${m[2]}${hours}${m[4] ? `:${m[4]}` : ""}`;
}

/** The browser's (or server's) own zone under its current id, e.g. for a sign-up form's default. */
export function localTimeZone(): string {
  try {
    return currentZoneId(Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC");
  } catch {
    return "UTC";
  }
}
