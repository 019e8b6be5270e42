"use client";

import { useId, type ReactNode } from "react";

// Every chart of the Insights page in one frame (decisions §22, accessibility): its heading, a
// sentence saying what it shows (the picture's name for a screen reader too), the picture, and
// the same figures as a real table under "Show as a table".

export type Column<Row> = { header: string; cell: (row: Row) => ReactNode; numeric?: boolean };

/** A table of a chart's figures: caption, column headers, the first column heading each row. */
export function FiguresTable<Row>({ caption, columns, rows, rowKey }: { caption: string; columns: Column<NoInfer<Row>>[]; rows: Row[]; rowKey: (row: NoInfer<Row>) => string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-sm">
        <caption className="pb-2 text-left text-slate-600">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200">
            {columns.map((c) => (
              <th key={c.header} scope="col" className={`px-2 py-1.5 font-medium text-slate-700 ${c.numeric ? "text-right" : "text-left"}`}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className="border-b border-slate-100 last:border-0">
              {columns.map((c, i) =>
                i === 0 ? (
                  <th key={c.header} scope="row" className="px-2 py-1.5 text-left font-normal break-words text-slate-900">
                    {c.cell(row)}
                  </th>
                ) : (
                  <td key={c.header} className={`px-2 py-1.5 tabular-nums ${c.numeric ? "text-right" : ""}`}>
                    {c.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A section with a chart: `summary` is said under the heading and names the picture; `table` is
 * the figures, folded under "Show as a table" (a <details>: no script needed to open it).
 */
export function ChartSection({ title, summary, chart, table }: { title: string; summary: string; chart: ReactNode; table: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {title}
      </h2>
      <p id={`${id}-summary`} className="text-sm text-slate-600">
        {summary}
      </p>
      {/* Hidden overflow: while the chart follows a narrower window it never widens the page. */}
      <div role="img" aria-labelledby={`${id}-summary`} className="w-full min-w-0 overflow-hidden">
        {chart}
      </div>
      <details className="group">
        <summary className="cursor-pointer text-sm font-medium text-blue-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600">
          <span className="group-open:hidden">Show as a table</span>
          <span className="hidden group-open:inline">Hide the table</span>
        </summary>
        <div className="pt-3">{table}</div>
      </details>
    </section>
  );
}
