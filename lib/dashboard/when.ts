import { formatDay, formatRange, formatTime } from "@/lib/time/format";
import { zoneName } from "@/lib/time/zones";

// Times on the dashboard, the same in the first HTML and in the browser. The server renders a
// page before the browser runs it: a time formatted with either side's own defaults (the
// process's zone or locale, the browser's) reads differently in the two, and React refuses the
// page's text on hydration (error #418). So every time here names its zone (the host's profile
// zone, which both sides know) and its locale: the dashboard is written in English.
const DASHBOARD_LOCALE = "en-US";

/** "Mon, Nov 30, 2026 · 9:00 – 9:30 AM" in `zone`. */
export const bookingWhen = (start: string, end: string, zone: string): string => formatRange(start, end, zone, { locale: DASHBOARD_LOCALE });

/** "Mon, Nov 30, 2026 · 9:00 AM" in `zone`. */
export const momentWhen = (instant: string, zone: string): string =>
  `${formatDay(instant, zone, DASHBOARD_LOCALE)} · ${formatTime(instant, zone, { locale: DASHBOARD_LOCALE })}`;

/**
 * "Eastern Time (US & Canada)" for America/New_York: a zone as people call it, never its id. The
 * name of its rules around `at` (now): Berlin's in 1970, before it kept summer time, was another.
 */
export const zoneWords = (zone: string, at: string | number = Date.now()): string => zoneName(zone, new Date(at), DASHBOARD_LOCALE);
