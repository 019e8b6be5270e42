import type { InsightsDto } from "@/lib/browser/api-client/insights";

// The range's totals as cards: a figure, what it counts, and a line saying so in plain words.

type Key = keyof InsightsDto["totals"];

const CARDS: { key: Key; one: string; many: string; hint: string }[] = [
  { key: "bookings", one: "booking", many: "bookings", hint: "Starting in these dates, whatever became of them" },
  { key: "confirmed", one: "confirmed", many: "confirmed", hint: "Going ahead, or went ahead" },
  { key: "pending", one: "request waiting", many: "requests waiting", hint: "For your answer" },
  { key: "cancelled", one: "cancelled", many: "cancelled", hint: "By the guest or you, declined requests included" },
  { key: "rescheduled", one: "rescheduled", many: "rescheduled", hint: "Moved to another time at least once" },
  { key: "noShow", one: "no-show", many: "no-shows", hint: "Guests marked as not having come" },
];

export function Totals({ totals }: { totals: InsightsDto["totals"] }) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label="Totals">
      {CARDS.map((c) => {
        const n = totals[c.key];
        return (
          <li key={c.key} className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-4" data-testid={`total-${c.key}`}>
            <p className="flex flex-wrap items-baseline gap-x-1.5">
              <span className="text-2xl font-semibold tabular-nums">{n}</span>{" "}
              <span className="font-medium text-slate-800">{n === 1 ? c.one : c.many}</span>
            </p>
            <p className="text-sm text-slate-600">{c.hint}</p>
          </li>
        );
      })}
    </ul>
  );
}
