import { formatDay, formatRange, formatTime } from "@/lib/time/format";
import { zoneName } from "@/lib/time/zones";

// Times on the dashboard, the same in the first HTML and in the browser. The server renders a
// page before the browser runs it, and React refuses a text that reads otherwise on hydration
// (error #418), then renders the whole page again. Three things made them differ:
// - the zone: each side's own (the server's process, the browser's) unless one is named. Every
//   time here is in the host's profile zone, which both sides know;
// - the locale: each side's default ("9:00 AM" on the server, "09:00" in an en-GB browser). The
//   dashboard is written in English: en-US on both;
// - the spaces: Node's ICU writes "9:00 – 9:45 AM" with thin spaces around the dash and a narrow no-break
//   space before AM, Chromium's patched ICU plain spaces (for pages that match on " AM"). Both are
//   written here with plain ones.
const DASHBOARD_LOCALE = "en-US";

const plainSpaces = (text: string) => text.replace(/[\u00a0\u2009\u202f]/g, " ");

/** "Mon, Nov 30, 2026 · 9:00 – 9:30 AM" in `zone`. */
export const bookingWhen = (start: string, end: string, zone: string): string => plainSpaces(formatRange(start, end, zone, { locale: DASHBOARD_LOCALE }));

/** "Mon, Nov 30, 2026 · 9:00 AM" in `zone`. */
export const momentWhen = (instant: string, zone: string): string =>
  plainSpaces(`${formatDay(instant, zone, DASHBOARD_LOCALE)} · ${formatTime(instant, zone, { locale: DASHBOARD_LOCALE })}`);

/**
 * "Eastern Time (US & Canada)" for America/New_York: a zone as people call it, never its id. The
 * name of its rules around `at` (now): Berlin's in 1970, before it kept summer time, was another.
 */
export const zoneWords = (zone: string, at: string | number = Date.now()): string => zoneName(zone, new Date(at), DASHBOARD_LOCALE);
