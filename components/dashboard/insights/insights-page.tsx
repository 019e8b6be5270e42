"use client";

import { useQuery } from "@tanstack/react-query";
import { useEventTypeGroups } from "@/components/dashboard/event-type-groups";
import { LoadError, Loading } from "@/components/dashboard/query-state";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { insightsQuery, type InsightsDto, type InsightsFilter } from "@/lib/browser/api-client/insights";
import { bookingsCsvHref } from "@/lib/dashboard/insights-filter";
import { byDaySummary, byEventTypeSummary, byHostSummary, countOf, dayWords, heatMapSummary, leadTimeSentence, rangeWords } from "@/lib/dashboard/insights-words";
import { zoneWords } from "@/lib/dashboard/when";
import { ChartSection, FiguresTable, type Column } from "./chart-figure";
import { ByDayChart, ByEventTypeChart, ByHostChart } from "./charts";
import { HeatMap } from "./heat-map";
import { InsightsFilters } from "./insights-filters";
import { Totals } from "./totals";

// The Insights page (decisions §22): how the host's booking pages are doing over a range of days,
// for an event type or a team: totals, bookings per day, per event type, when guests book, how
// far ahead, per host of team event types; each chart also a table, and the bookings as CSV.

type Teams = { id: string; name: string }[];

type Counts = { bookings: number; cancelled: number; noShow: number };

const statusColumns = <Row extends Counts>(): Column<Row>[] => [
  { header: "Bookings", cell: (r) => r.bookings, numeric: true },
  { header: "Cancelled", cell: (r) => r.cancelled, numeric: true },
  { header: "No-shows", cell: (r) => r.noShow, numeric: true },
];

function Download({ filter }: { filter: InsightsFilter }) {
  const { href, teamIgnored } = bookingsCsvHref(filter);
  return (
    <div className="flex flex-col items-start gap-1 sm:items-end">
      <a href={href} download className={buttonClass("secondary", "sm")}>
        Download CSV
      </a>
      <p className="text-xs text-slate-600 sm:text-right">
        {teamIgnored ? "The bookings in these dates, of all your event types (the file has no team filter)" : "These bookings, one row each, for a spreadsheet"}
      </p>
    </div>
  );
}

function Empty({ what, zone, publicUrl }: { what: string; zone: string; publicUrl: string }) {
  return (
    <section aria-labelledby="totals-heading" className="flex flex-col gap-2 rounded-lg border border-dashed border-slate-300 bg-white p-5 text-slate-700">
      <h2 id="totals-heading" className="text-lg font-semibold text-slate-900">
        No bookings start {what}
      </h2>
      <p className="text-sm text-slate-600">Counted by their start, in {zoneWords(zone)}.</p>
      <p>
        Nothing to chart yet. Share your booking page to get some:{" "}
        <a href={publicUrl} className="break-all text-blue-700 underline" target="_blank" rel="noreferrer">
          {publicUrl}
        </a>
      </p>
    </section>
  );
}

function Charts({ insights, locale, weekStart }: { insights: InsightsDto; locale: string; weekStart: number }) {
  const days = insights.byDay.filter((d) => d.bookings > 0);
  // The year in the table's dates only when the range spans two.
  const year = insights.from.slice(0, 4) !== insights.to.slice(0, 4);
  const lead = leadTimeSentence(insights.leadTimeHours);
  return (
    <>
      <ChartSection
        title="Bookings per day"
        summary={byDaySummary(insights, locale)}
        chart={<ByDayChart byDay={insights.byDay} locale={locale} />}
        table={
          <FiguresTable
            caption="Bookings per day (days without bookings left out)"
            columns={[{ header: "Day", cell: (d) => dayWords(d.date, locale, { weekday: true, year }) }, ...statusColumns()]}
            rows={days}
            rowKey={(d) => d.date}
          />
        }
      />
      <ChartSection
        title="Per event type"
        summary={byEventTypeSummary(insights.byEventType)}
        chart={<ByEventTypeChart rows={insights.byEventType} />}
        table={
          <FiguresTable caption="Bookings per event type" columns={[{ header: "Event type", cell: (r) => r.title }, ...statusColumns()]} rows={insights.byEventType} rowKey={(r) => r.eventTypeId} />
        }
      />
      <section aria-labelledby="when-heading" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="when-heading" className="text-lg font-semibold">
          When guests book
        </h2>
        <p className="text-sm text-slate-600">
          {heatMapSummary(insights.byWeekdayHour, locale)} Start times in {zoneWords(insights.timeZone)}; cancelled bookings left out.
        </p>
        <HeatMap cells={insights.byWeekdayHour} weekStart={weekStart} locale={locale} caption={`Bookings by weekday and starting hour, ${rangeWords(insights.from, insights.to, locale)}`} />
      </section>
      <section aria-labelledby="lead-heading" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="lead-heading" className="text-lg font-semibold">
          How far ahead
        </h2>
        <p className="text-slate-800">{lead ?? "Every booking in these dates was cancelled, so there is no lead time to tell."}</p>
      </section>
      {insights.byHost.length > 0 && (
        <ChartSection
          title="Per host"
          summary={byHostSummary(insights.byHost)}
          chart={<ByHostChart rows={insights.byHost} />}
          table={
            <FiguresTable
              caption="Bookings per host of your team event types, not cancelled"
              columns={[{ header: "Host", cell: (r) => r.fullName }, { header: "Bookings", cell: (r) => r.bookings, numeric: true }]}
              rows={insights.byHost}
              rowKey={(r) => r.userId}
            />
          }
        />
      )}
    </>
  );
}

export function InsightsPage({
  filter,
  refused,
  today,
  locale,
  weekStart,
  teams,
  publicUrl,
}: {
  filter: InsightsFilter;
  /** The address asked for dates the page cannot show: it shows the last 30 days and says so. */
  refused: boolean;
  /** Today in the host's zone (the quick ranges end on it). */
  today: string;
  /** The host's language, for dates, weekdays and hours. */
  locale: string;
  /** The weekday the host's week starts on (0 = Sunday). */
  weekStart: number;
  teams: Teams;
  publicUrl: string;
}) {
  const insights = useQuery(insightsQuery(filter));
  const groups = useEventTypeGroups(teams);
  const range = rangeWords(filter.from, filter.to, locale);
  const eventType = groups.flatMap((g) => g.choices).find((c) => c.id === filter.eventTypeId)?.title;
  const team = teams.find((t) => t.id === filter.teamId)?.name;
  const what = [`in ${range}`, eventType && `for ${eventType}`, team && `in the team ${team}`].filter(Boolean).join(" ");

  return (
    <>
      <InsightsFilters filter={filter} today={today} groups={groups} teams={teams} />
      {refused && <Alert tone="info">Those dates could not be shown (a day that does not exist, a range that ends before it starts, or more than a year): here are the last 30 days.</Alert>}
      {insights.isPending ? (
        <Loading>Loading your insights…</Loading>
      ) : insights.isError ? (
        <LoadError what="your insights" error={insights.error} onRetry={() => void insights.refetch()} />
      ) : insights.data.totals.bookings === 0 ? (
        <Empty what={what} zone={insights.data.timeZone} publicUrl={publicUrl} />
      ) : (
        <>
          <section aria-labelledby="totals-heading" className="flex flex-col gap-3">
            <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
              <div className="flex flex-col gap-0.5">
                <h2 id="totals-heading" className="text-lg font-semibold">
                  {`${countOf(insights.data.totals.bookings, "booking")} ${what}`}
                </h2>
                <p className="text-sm text-slate-600">Counted by their start, in {zoneWords(insights.data.timeZone)}.</p>
              </div>
              <Download filter={filter} />
            </div>
            <Totals totals={insights.data.totals} />
          </section>
          <Charts insights={insights.data} locale={locale} weekStart={weekStart} />
        </>
      )}
    </>
  );
}
