import type { RefundReason } from "@/db/schema/enums";
import { formatMoney } from "@/lib/payments/money";
import { formatTime } from "@/lib/time/format";

// The dashboard's words for money (decisions §20): a payment's state, a refund's reason, a
// booking's badge. Amounts in the host's locale (their language: "€49.90", "49,90 €"); the rest
// of the dashboard is English. Pure: the server's first HTML and the browser say the same.

const REASONS: Record<RefundReason, string> = {
  host_cancelled: "host cancelled",
  declined: "request declined",
  guest_cancelled: "guest cancelled",
  expired_request: "request not answered in time",
  late_payment: "paid after the hold ended",
};

export const refundReasonWords = (reason: RefundReason): string => REASONS[reason];

type Refund = { amount: number; reason: RefundReason; status: "pending" | "succeeded" };
type Payment = { status: "unpaid" | "paid" | "expired" | "failed"; currency: string; holdExpiresAt: string; refunds: Refund[] };

/** "10:15" or "10:15 AM" in the host's zone, with plain spaces (as lib/dashboard/when.ts writes times). */
const clock = (instant: string, zone: string) => formatTime(instant, zone, { locale: "en-US" }).replace(/[\u00a0\u2009\u202f]/g, " ");

/**
 * A payment in words: "Paid", "Awaiting payment until 10:15 AM", "Not paid in time", "Payment
 * failed", then what went back: "Refunded €49.90 (host cancelled)", "Refund pending: €49.90 (…)".
 */
export function paymentStateWords(p: Payment, zone: string, locale: string): string[] {
  const words: string[] = [];
  if (p.status === "paid") words.push("Paid");
  else if (p.status === "unpaid") words.push(`Awaiting payment until ${clock(p.holdExpiresAt, zone)}`);
  else if (p.status === "expired") words.push("Not paid in time");
  else words.push("Payment failed");
  for (const r of p.refunds) {
    words.push(r.status === "succeeded" ? `Refunded ${formatMoney(r.amount, p.currency, locale)} (${REASONS[r.reason]})` : `Refund pending: ${formatMoney(r.amount, p.currency, locale)} (${REASONS[r.reason]})`);
  }
  return words;
}

/**
 * A booking's badge in lists and on its card: "Paid €49.90", "Refunded €49.90", "Awaiting payment
 * €49.90", and "Not paid €49.90" for a hold that ended (cancelled before anyone paid).
 */
export function bookingPaymentWords(payment: { status: "unpaid" | "paid" | "refunded"; amount: number; currency: string }, locale: string, bookingStatus?: string): string {
  const money = formatMoney(payment.amount, payment.currency, locale);
  if (payment.status === "paid") return `Paid ${money}`;
  if (payment.status === "refunded") return `Refunded ${money}`;
  return bookingStatus === "cancelled" ? `Not paid ${money}` : `Awaiting payment ${money}`;
}

/** The locale money is shown in on the dashboard: the host's language (both sides of the render know it). */
export const moneyLocaleOf = (language: string | undefined): string => language ?? "en";
