import { queryOptions } from "@tanstack/react-query";
import { api, dataOf, type Schemas } from "./client";

// The host's payments (decisions §20): the Payments page's totals and list, and whether payments
// are set up at all (the event-type editor's Price section asks the same first page).

export type PaymentListDto = Schemas["PaymentList"];
export type PaymentDto = Schemas["Payment"];
export type PaymentStatus = PaymentDto["status"];

export type PaymentFilter = { from?: string; to?: string; status?: PaymentStatus; page?: number };

export const paymentKeys = { all: ["me", "payments"] as const };

/** The filter as the query string has it: empty values left out, so {} and {status: undefined} are one key. */
export const paymentFilterOf = ({ from, to, status, page }: PaymentFilter): PaymentFilter => ({
  ...(from ? { from } : {}),
  ...(to ? { to } : {}),
  ...(status ? { status } : {}),
  ...(page && page > 1 ? { page } : {}),
});

export function paymentsQuery(filter: PaymentFilter = {}) {
  const f = paymentFilterOf(filter);
  return queryOptions({
    queryKey: [...paymentKeys.all, f] as const,
    queryFn: () => dataOf(api.GET("/me/payments", { params: { query: { ...f, page: f.page === undefined ? undefined : String(f.page) } } })),
  });
}
