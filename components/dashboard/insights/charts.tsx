"use client";

import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import type { InsightsDto } from "@/lib/browser/api-client/insights";
import { dayWords } from "@/lib/dashboard/insights-words";

// The Insights page's bar charts, drawn by recharts (decisions §22). Only this page imports this
// file, so the library is in its bundle alone (the guest's booking page never loads it). Each
// chart is a picture: its name and its figures are the ChartSection's sentence and table, so the
// charts leave recharts' keyboard layer off (nothing to tab through inside an image).

// Tailwind's blue-600, amber-500 and slate-400: kept, no-show and cancelled on every chart.
const KEPT = "#2563eb";
const NO_SHOW = "#f59e0b";
const CANCELLED = "#94a3b8";

type Counts = { bookings: number; cancelled: number; noShow: number };

/** A bar's three parts: cancelled and no-show are among the bookings; the rest went ahead (or will). */
const split = <T extends Counts>(row: T) => ({ ...row, kept: row.bookings - row.cancelled - row.noShow });

const axisTick = { fontSize: 12, fill: "#475569" };

/** The legend's names in the page's text colour (recharts writes each in its series' colour: amber on white is hard to read). */
const legendName = (name: string) => <span style={{ color: "#334155" }}>{name}</span>;

/** Whole-number ticks up to the largest bar, at most five: a chart of ones reads 0 and 1, not 0 to 4. */
const countTicks = (rows: { bookings: number }[]) => Math.min(5, Math.max(1, ...rows.map((r) => r.bookings)) + 1);

function StatusBars({ layout }: { layout: "horizontal" | "vertical" }) {
  const radius: [number, number, number, number] = layout === "vertical" ? [0, 3, 3, 0] : [3, 3, 0, 0];
  return (
    <>
      <Bar dataKey="kept" name="Booked" stackId="s" fill={KEPT} isAnimationActive={false} />
      <Bar dataKey="noShow" name="No-show" stackId="s" fill={NO_SHOW} isAnimationActive={false} />
      <Bar dataKey="cancelled" name="Cancelled" stackId="s" fill={CANCELLED} radius={radius} isAnimationActive={false} />
    </>
  );
}

/** Bookings per day, each bar split into booked, no-show and cancelled. */
export function ByDayChart({ byDay, locale }: { byDay: InsightsDto["byDay"]; locale: string }) {
  const data = byDay.map(split);
  const long = byDay.length > 62;
  return (
    <BarChart data={data} responsive accessibilityLayer={false} style={{ width: "100%", height: 260 }} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
      <CartesianGrid vertical={false} stroke="#e2e8f0" />
      <XAxis dataKey="date" tick={axisTick} tickFormatter={(d: string) => dayWords(d, locale)} minTickGap={long ? 24 : 12} />
      <YAxis allowDecimals={false} tick={axisTick} tickCount={countTicks(byDay)} />
      <Tooltip labelFormatter={(d) => dayWords(String(d), locale, { weekday: true, year: true })} />
      <Legend wrapperStyle={{ fontSize: 13 }} formatter={legendName} />
      <StatusBars layout="horizontal" />
    </BarChart>
  );
}

const MAX_LABEL = 22;
const shorten = (text: string) => (text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL - 1)}…` : text);

/** Horizontal bars, one per row (an event type, a host), most first, as the API orders them. */
function HorizontalBars({ data, stacked }: { data: ({ name: string; bookings: number } & Partial<Counts>)[]; stacked: boolean }) {
  // Room for each bar and its name; the names' column as wide as the longest (within reason).
  const height = 56 + data.length * 36;
  const labelWidth = Math.min(150, 24 + Math.max(...data.map((r) => shorten(r.name).length)) * 7);
  return (
    <BarChart data={data} layout="vertical" responsive accessibilityLayer={false} style={{ width: "100%", height }} margin={{ top: 0, right: 16, bottom: 0, left: 0 }}>
      <CartesianGrid horizontal={false} stroke="#e2e8f0" />
      <XAxis type="number" allowDecimals={false} tick={axisTick} tickCount={countTicks(data)} />
      <YAxis type="category" dataKey="name" width={labelWidth} tick={axisTick} tickFormatter={(v: string) => shorten(v)} interval={0} />
      <Tooltip />
      {stacked ? (
        <>
          <Legend wrapperStyle={{ fontSize: 13 }} formatter={legendName} />
          <StatusBars layout="vertical" />
        </>
      ) : (
        <Bar dataKey="bookings" name="Bookings" fill={KEPT} radius={[0, 3, 3, 0]} isAnimationActive={false} />
      )}
    </BarChart>
  );
}

export function ByEventTypeChart({ rows }: { rows: InsightsDto["byEventType"] }) {
  return <HorizontalBars data={rows.map((r) => ({ ...split(r), name: r.title }))} stacked />;
}

export function ByHostChart({ rows }: { rows: InsightsDto["byHost"] }) {
  return <HorizontalBars data={rows.map((r) => ({ ...r, name: r.fullName }))} stacked={false} />;
}
