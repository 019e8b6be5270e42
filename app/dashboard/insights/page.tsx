import type { Metadata } from "next";
import { Prefetched } from "@/app/dashboard/prefetched";
import { InsightsPage } from "@/components/dashboard/insights/insights-page";
import { requireHost } from "@/lib/dashboard/current-host";
import { activeTeamsOf } from "@/lib/dashboard/host-teams";
import { readInsightsFilter } from "@/lib/dashboard/insights-filter";
import { weekStartOf } from "@/lib/dashboard/insights-words";
import { asLocale, INTL_TAG } from "@/lib/i18n/locales";
import { hostPageUrl } from "@/lib/links";
import { todayIn } from "@/lib/services/time-off/store";

export const metadata: Metadata = { title: "Insights" };

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * The filter is the address's (?from=…&to=…&eventTypeId=…&teamId=…; by default the last 30 days
 * in the host's zone), and the page arrives with its figures and the filter's choices (the host's
 * event types and their teams'). The week starts as the host's language has it, worked out here
 * once, so the server's HTML and the browser's render agree.
 */
export default async function DashboardInsightsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const host = await requireHost();
  const today = todayIn(host.timezone);
  const { filter, refused } = readInsightsFilter(await searchParams, today);
  const teams = await activeTeamsOf(host);
  // Intl's tag of the host's language: its region orders dates ("Mar 15", "15. März") and starts the week.
  const locale = INTL_TAG[asLocale(host.language)];
  return (
    <>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Insights</h1>
        <p className="text-slate-600">How your booking pages are doing: how many guests book, when, how far ahead, and what became of their bookings.</p>
      </div>
      <Prefetched resources={["me", "eventTypes", ...teams.map((t) => ({ teamEventTypes: t.id })), { insights: filter }]}>
        <InsightsPage
          filter={filter}
          refused={refused}
          today={today}
          locale={locale}
          weekStart={weekStartOf(locale)}
          teams={teams}
          publicUrl={hostPageUrl(host.username)}
        />
      </Prefetched>
    </>
  );
}
