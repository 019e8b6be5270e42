import { bookingsCsvHref as bookingsListCsvHref } from "@/lib/browser/api-client/bookings";
import { insightsFilterOf, type InsightsFilter } from "@/lib/browser/api-client/insights";
import { InsightsQuery } from "@/lib/schemas/insights";
import { addDays } from "@/lib/time/format";

// The Insights page's filter (decisions §22), kept in the address (?from=…&to=…&eventTypeId=…&teamId=…)
// under the API's own names, so a view can be shared, reloaded and downloaded as the same CSV.
// Pure: the server's first HTML and the browser read an address alike.

export type { InsightsFilter };

/**
 * The quick ranges offered beside the dates, in the host's zone: the past ones end today; "Next 30
 * days" starts today, for what is booked ahead (the figures count by the meeting's start).
 */
export const QUICK_RANGES = [
  { id: "7", label: "Last 7 days" },
  { id: "30", label: "Last 30 days" },
  { id: "90", label: "Last 90 days" },
  { id: "year", label: "This year" },
  { id: "next30", label: "Next 30 days" },
] as const;
export type QuickRange = (typeof QUICK_RANGES)[number]["id"];

/** The dates of a quick range ending on `today` (YYYY-MM-DD in the host's zone). */
export function quickRange(id: QuickRange, today: string): { from: string; to: string } {
  if (id === "year") return { from: `${today.slice(0, 4)}-01-01`, to: today };
  if (id === "next30") return { from: today, to: addDays(today, 29) };
  return { from: addDays(today, 1 - Number(id)), to: today };
}

/** Which quick range a filter's dates are, if any. */
export const quickRangeOf = (filter: { from: string; to: string }, today: string): QuickRange | undefined =>
  QUICK_RANGES.find((r) => {
    const range = quickRange(r.id, today);
    return range.from === filter.from && range.to === filter.to;
  })?.id;

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * The address's filter; without dates, the last 30 days. An address the API would refuse (a date
 * that is none, a reversed range, more than 366 days) shows the last 30 days with its other
 * choices, and says so (`refused`) rather than showing an error or nothing.
 */
export function readInsightsFilter(search: SearchParams, today: string): { filter: InsightsFilter; refused: boolean } {
  const first = (name: string) => [search[name]].flat()[0] || undefined;
  const fallback = quickRange("30", today);
  const asked = { from: first("from") ?? fallback.from, to: first("to") ?? fallback.to, eventTypeId: first("eventTypeId"), teamId: first("teamId") };
  const parsed = InsightsQuery.safeParse(insightsFilterOf(asked));
  if (parsed.success) return { filter: insightsFilterOf(parsed.data), refused: false };
  const others = InsightsQuery.safeParse(insightsFilterOf({ ...asked, ...fallback }));
  return { filter: others.success ? insightsFilterOf(others.data) : fallback, refused: true };
}

/** The page's address for a filter. */
export function insightsHref(filter: InsightsFilter): string {
  return `/dashboard/insights?${new URLSearchParams(insightsFilterOf(filter)).toString()}`;
}

/**
 * The bookings list as CSV with the filters the list understands (dates and an event type): a
 * same-origin GET, so the dashboard's session cookie authenticates the download. The list has no
 * team filter: `teamIgnored` says the file holds more than the page counts.
 */
export function bookingsCsvHref(filter: InsightsFilter): { href: string; teamIgnored: boolean } {
  const href = bookingsListCsvHref({ from: filter.from, to: filter.to, eventTypeId: filter.eventTypeId });
  return { href, teamIgnored: Boolean(filter.teamId && !filter.eventTypeId) };
}
