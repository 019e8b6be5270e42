"use client";

import type { InsightsDto } from "@/lib/browser/api-client/insights";
import { countOf, hourWords, weekdaysFrom, weekdayWords } from "@/lib/dashboard/insights-words";

// When guests' bookings start (decisions §22): a weekday × hour table whose cells darken with
// their count. A real table, so it is its own accessible form: a screen reader reads each count
// with its weekday and hour. On a phone 24 columns do not fit 390 px: it shows the hours that
// have bookings, with an hour either side; from sm up, the whole day.

const HOURS = Array.from({ length: 24 }, (_, h) => h);

// Five shades, lightest to darkest; the two darkest carry white figures (each pair passes WCAG AA).
const SHADES = ["bg-blue-100 text-slate-900", "bg-blue-200 text-slate-900", "bg-blue-300 text-slate-900", "bg-blue-600 text-white", "bg-blue-800 text-white"];

const shadeOf = (count: number, max: number) => SHADES[Math.min(SHADES.length - 1, Math.ceil((count / max) * SHADES.length) - 1)]!;

/** The hours a phone shows: those with bookings and one either side (all of them without bookings). */
function phoneHours(cells: InsightsDto["byWeekdayHour"]): { first: number; last: number } {
  if (cells.length === 0) return { first: 0, last: 23 };
  const hours = cells.map((c) => c.hour);
  return { first: Math.max(0, Math.min(...hours) - 1), last: Math.min(23, Math.max(...hours) + 1) };
}

export function HeatMap({ cells, weekStart, locale, caption }: { cells: InsightsDto["byWeekdayHour"]; weekStart: number; locale: string; caption: string }) {
  const count = new Map(cells.map((c) => [`${c.weekday}:${c.hour}`, c.bookings]));
  const max = Math.max(1, ...cells.map((c) => c.bookings));
  const { first, last } = phoneHours(cells);
  const onPhone = (hour: number) => (hour >= first && hour <= last ? "" : "hidden sm:table-cell");
  return (
    <div className="overflow-x-auto">
      <table className="w-full table-fixed border-separate border-spacing-0.5 text-xs">
        <caption className="sr-only">{caption}</caption>
        <colgroup>
          <col className="w-11" />
        </colgroup>
        <thead>
          <tr>
            <td />
            {HOURS.map((h) => (
              <th key={h} scope="col" className={`px-0 pb-1 text-center align-bottom leading-tight font-normal break-words text-slate-600 ${onPhone(h)}`}>
                {hourWords(h, locale)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weekdaysFrom(weekStart).map((day) => (
            <tr key={day}>
              <th scope="row" className="pr-1 text-left font-normal text-slate-700">
                <abbr title={weekdayWords(day, locale, "long")} className="no-underline">
                  {weekdayWords(day, locale)}
                </abbr>
              </th>
              {HOURS.map((h) => {
                const n = count.get(`${day}:${h}`) ?? 0;
                return (
                  <td
                    key={h}
                    title={n > 0 ? `${weekdayWords(day, locale, "long")}, ${hourWords(h, locale)}: ${countOf(n, "booking")}` : undefined}
                    className={`h-7 rounded-sm text-center tabular-nums ${n > 0 ? `font-medium ${shadeOf(n, max)}` : "bg-slate-100"} ${onPhone(h)}`}
                  >
                    {n > 0 ? n : <span className="sr-only">0</span>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
