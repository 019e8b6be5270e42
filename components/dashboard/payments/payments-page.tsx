"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { LoadError, Loading } from "@/components/dashboard/query-state";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { meQuery } from "@/lib/browser/api-client/account";
import { paymentsQuery, type PaymentDto, type PaymentFilter, type PaymentListDto } from "@/lib/browser/api-client/payments";
import { moneyLocaleOf, paymentStateWords } from "@/lib/dashboard/payment-words";
import { momentWhen } from "@/lib/dashboard/when";
import { formatMoney } from "@/lib/payments/money";
import { formatShortDate } from "@/lib/time/format";

// The Payments page (decisions §20): what guests paid in a range of days, what went back, what
// stays, per currency; then each payment with its guest, booking and state in words. The range
// and status are the address's (?from=…&to=…&status=…&page=…): a plain form, so a reload, Back
// and a shared link show the same figures, and every view is rendered on the server first.

const STATUSES: { value: PaymentFilter["status"] | ""; label: string }[] = [
  { value: "", label: "Any status" },
  { value: "paid", label: "Paid" },
  { value: "unpaid", label: "Awaiting payment" },
  { value: "expired", label: "Not paid in time" },
  { value: "failed", label: "Failed" },
];

function NotSetUp() {
  return (
    <Alert tone="info" className="flex flex-col gap-1">
      <p className="font-medium">Payments are not set up on this service.</p>
      <p>
        To take payment when guests book, the service&apos;s operator connects a Stripe account (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET; the
        steps are in docs/payments.md). Until then your event types are free to book.
      </p>
    </Alert>
  );
}

function Totals({ totals, locale, range }: { totals: PaymentListDto["totals"]; locale: string; range: string }) {
  if (totals.length === 0) return <p className="text-slate-600">No payments received {range}.</p>;
  return (
    <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {totals.map((t) => (
        <li key={t.currency} className="rounded-lg border border-slate-200 bg-white p-4">
          <p className="text-sm text-slate-600">
            {t.currency.toUpperCase()} · {t.count} {t.count === 1 ? "payment" : "payments"}
          </p>
          <p className="text-2xl font-semibold" aria-label={`Net ${formatMoney(t.net, t.currency, locale)}`}>
            {formatMoney(t.net, t.currency, locale)} <span className="text-sm font-normal text-slate-600">after refunds</span>
          </p>
          <p className="text-sm text-slate-600">
            Paid {formatMoney(t.paid, t.currency, locale)} · Refunded {formatMoney(t.refunded, t.currency, locale)}
          </p>
        </li>
      ))}
    </ul>
  );
}

function PaymentRow({ payment: p, zone, locale }: { payment: PaymentDto; zone: string; locale: string }) {
  const [state, ...refunds] = paymentStateWords(p, zone, locale);
  const tone = p.status === "paid" ? "bg-green-100 text-green-900" : p.status === "unpaid" ? "bg-amber-100 text-amber-900" : "bg-slate-100 text-slate-800";
  return (
    <li className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-4 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
      <div className="flex min-w-0 flex-col gap-0.5">
        <p className="font-medium break-words">
          {p.booking.guestName} <span className="font-normal text-slate-600">· {p.eventType.title}</span>
        </p>
        <p className="text-sm text-slate-600 break-words">{p.booking.guestEmail}</p>
        <p className="text-sm text-slate-700">
          <Link href={`/dashboard/bookings?booking=${encodeURIComponent(p.booking.id)}`} className="text-blue-700 underline">
            {momentWhen(p.booking.startTime, zone)}
          </Link>
          {p.quantity > 1 && ` and ${p.quantity - 1} more ${p.quantity === 2 ? "occurrence" : "occurrences"}`}
        </p>
        {refunds.map((r) => (
          <p key={r} className="text-sm text-slate-700">
            {r}
          </p>
        ))}
      </div>
      <div className="flex shrink-0 flex-row items-center gap-2 sm:flex-col sm:items-end">
        <p className="text-lg font-semibold">{formatMoney(p.amount, p.currency, locale)}</p>
        <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${tone}`}>{state}</span>
      </div>
    </li>
  );
}

function pageHref(filter: PaymentFilter, page: number): string {
  const q = new URLSearchParams();
  if (filter.from) q.set("from", filter.from);
  if (filter.to) q.set("to", filter.to);
  if (filter.status) q.set("status", filter.status);
  if (page > 1) q.set("page", String(page));
  const s = q.toString();
  return s ? `/dashboard/payments?${s}` : "/dashboard/payments";
}

export function PaymentsPage({ filter, zone }: { filter: PaymentFilter; zone: string }) {
  const list = useQuery(paymentsQuery(filter));
  const locale = moneyLocaleOf(useQuery(meQuery()).data?.language);
  const range =
    filter.from && filter.to
      ? `from ${formatShortDate(filter.from, { year: true })} to ${formatShortDate(filter.to, { year: true })}`
      : filter.from
        ? `since ${formatShortDate(filter.from, { year: true })}`
        : filter.to
          ? `until ${formatShortDate(filter.to, { year: true })}`
          : "so far";

  if (list.isPending) return <Loading>Loading your payments…</Loading>;
  if (list.isError) return <LoadError what="your payments" error={list.error} onRetry={() => void list.refetch()} />;
  const { configured, totals, data, pagination } = list.data;
  const pages = Math.max(1, Math.ceil(pagination.total / pagination.limit));
  return (
    <>
      {!configured && <NotSetUp />}
      <form method="get" action="/dashboard/payments" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:flex-row sm:items-end">
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-800">
          From
          <input type="date" name="from" defaultValue={filter.from} className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-800">
          To
          <input type="date" name="to" defaultValue={filter.to} className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-800">
          Status
          <select name="status" defaultValue={filter.status ?? ""} className={inputClass}>
            {STATUSES.map((s) => (
              <option key={s.label} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={buttonClass("secondary")}>
          Show
        </button>
      </form>
      <section aria-labelledby="totals-heading" className="flex flex-col gap-3">
        <h2 id="totals-heading" className="text-lg font-semibold">
          Totals {range}
        </h2>
        <Totals totals={totals} locale={locale} range={range} />
      </section>
      <section aria-labelledby="payments-heading" className="flex flex-col gap-3">
        <h2 id="payments-heading" className="text-lg font-semibold">
          Payments
        </h2>
        {data.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-5 text-slate-600">
            {configured
              ? `No payments ${filter.status ? "with this status " : ""}${range}. When a guest books an event type with a price, their payment shows here.`
              : "No payments yet: once payments are set up and an event type has a price, what guests pay shows here."}
          </p>
        ) : (
          <ul className="flex flex-col gap-3">
            {data.map((p) => (
              <PaymentRow key={p.id} payment={p} zone={zone} locale={locale} />
            ))}
          </ul>
        )}
        {pages > 1 && (
          <nav aria-label="Pages of payments" className="flex items-center gap-3">
            {pagination.page > 1 && (
              <Link href={pageHref(filter, pagination.page - 1)} className={buttonClass("secondary", "sm")}>
                Previous
              </Link>
            )}
            <span className="text-sm text-slate-600">
              Page {pagination.page} of {pages}
            </span>
            {pagination.page < pages && (
              <Link href={pageHref(filter, pagination.page + 1)} className={buttonClass("secondary", "sm")}>
                Next
              </Link>
            )}
          </nav>
        )}
      </section>
    </>
  );
}
