import type { Metadata } from "next";
import { Prefetched } from "@/app/dashboard/prefetched";
import { PaymentsPage } from "@/components/dashboard/payments/payments-page";
import { paymentFilterOf, type PaymentFilter } from "@/lib/browser/api-client/payments";
import { requireHost } from "@/lib/dashboard/current-host";
import { PaymentListQuery } from "@/lib/schemas/payment";
import { todayIn } from "@/lib/services/time-off/store";

export const metadata: Metadata = { title: "Payments" };

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * The range and status come from the address; without them, this month so far in the host's
 * zone. An address the API would refuse (a date that is none, a reversed range) shows this month.
 */
function filterOf(search: SearchParams, today: string): PaymentFilter {
  const first = (name: string) => [search[name]].flat()[0] || undefined;
  const asked = { from: first("from"), to: first("to"), status: first("status"), page: first("page") };
  const parsed = PaymentListQuery.safeParse(Object.fromEntries(Object.entries(asked).filter(([, v]) => v !== undefined)));
  const fallback = { from: `${today.slice(0, 8)}01`, to: today };
  if (!parsed.success) return fallback;
  const { from, to, status, page } = parsed.data;
  return paymentFilterOf(from || to ? { from, to, status, page } : { ...fallback, status, page });
}

export default async function DashboardPaymentsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const host = await requireHost();
  const filter = filterOf(await searchParams, todayIn(host.timezone));
  return (
    <>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Payments</h1>
        <p className="text-slate-600">What guests paid for your event types, what went back to them, and what stays.</p>
      </div>
      <Prefetched resources={["me", { payments: filter }]}>
        <PaymentsPage filter={filter} zone={host.timezone} />
      </Prefetched>
    </>
  );
}
