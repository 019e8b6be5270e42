import "server-only";
import type { BookingRow } from "@/db/schema";
import type { Messages } from "@/lib/i18n/en";
import { fill, plural } from "@/lib/i18n/fill";
import { INTL_TAG, type Locale } from "@/lib/i18n/locales";
import { formatMoney } from "@/lib/payments/money";
import { checkoutOf } from "@/lib/services/bookings/checkout";
import { refundableUntil } from "@/lib/services/bookings/refunds";
import { getDb } from "@/lib/store/database";
import { formatClock } from "@/lib/time/format";

// A paid booking's money as its guest reads it on the token pages (decisions §20): on the manage
// page what was paid, what waits for payment (and where to pay), what was released or refunded;
// on the cancel page, before the click, whether this cancel is refunded. Amounts in the guest's
// language, times in their zone and on their clock. Free bookings have none of it.

type Reader = {
  locale: Locale;
  messages: Messages;
  zone: string;
  hour12: boolean;
};

/** What the manage page says of the payment. */
export type ManagePayment =
  { kind: "awaiting"; text: string; payUrl: string | null } | { kind: "confirming"; text: string } | { kind: "released"; text: string } | { kind: "paid" | "refunded" | "kept"; text: string };

/**
 * The manage page's payment line. `returned`: the guest is back from Stripe's Checkout
 * (?payment=done) while the booking still waits: Stripe's event is on its way, and the page
 * says so (and looks again) rather than asking for the payment once more.
 */
export async function managePayment(booking: BookingRow, reader: Reader, returned: boolean): Promise<ManagePayment | undefined> {
  const now = Date.now();
  const checkout = await checkoutOf(await getDb(), booking, now);
  if (!checkout) return undefined;
  const p = reader.messages.pages;
  const money = (amount: number) => formatMoney(amount, checkout.currency, INTL_TAG[reader.locale]);
  const share = booking.priceAmount ?? checkout.amount;
  if (booking.status === "awaiting_payment") {
    if (returned) return { kind: "confirming", text: p.confirmingPayment };
    // A hold past its time is released by the next sweep (within a minute): nothing to pay at any more.
    if (!checkout.checkoutUrl) return { kind: "released", text: p.releasedUnpaid };
    const time = formatClock(checkout.payment.holdExpiresAt, reader.zone, reader.hour12, INTL_TAG[reader.locale]);
    return {
      kind: "awaiting",
      text: fill(p.awaitingPayment, { time }),
      payUrl: checkout.checkoutUrl,
    };
  }
  if (booking.paymentStatus === "refunded")
    return {
      kind: "refunded",
      text: fill(p.refunded, { amount: money(share) }),
    };
  if (booking.paymentStatus === "paid") {
    // Cancelled and still paid: the guest's own cancel after the refund window.
    if (booking.status === "cancelled")
      return {
        kind: "kept",
        text: plural(reader.locale, p.paidNotRefunded, checkout.payment.refundableUntilHours, { amount: money(share) }),
      };
    // What the guest paid: the whole Checkout (a series' every session at once).
    return {
      kind: "paid",
      text: fill(p.paid, { amount: money(checkout.amount) }),
    };
  }
  // Unpaid and no longer waiting: the hold ended (or was cancelled) before any payment.
  if (booking.status === "cancelled" && booking.cancelledBy === "system") return { kind: "released", text: p.releasedUnpaid };
  return undefined;
}

/** What the cancel page says before the click, and what it says once cancelled, for this session (and with every later one). */
export type CancelPayment = { before: string; after: string | null };

/**
 * A paid booking's cancel, in the guest's words: a full refund until `refundableUntilHours`
 * before the start, none after (refunds.ts decides the same at the click); a hold not paid yet
 * has nothing to give back. Each session of a series is refunded its own share, by its own start.
 */
export async function cancelPayment(
  booking: BookingRow,
  later: { startTime: Date }[],
  reader: Pick<Reader, "locale" | "messages">,
): Promise<{ this: CancelPayment; following: CancelPayment } | undefined> {
  const now = Date.now();
  const checkout = await checkoutOf(await getDb(), booking, now);
  if (!checkout) return undefined;
  const p = reader.messages.pages;
  if (booking.status === "awaiting_payment") {
    const nothing = { before: p.nothingPaid, after: null };
    return { this: nothing, following: nothing };
  }
  if (booking.paymentStatus !== "paid") return undefined;
  const hours = checkout.payment.refundableUntilHours;
  const share = booking.priceAmount ?? checkout.amount;
  const words = (sessions: { startTime: Date }[]): CancelPayment => {
    const refunded = sessions.filter((s) => now <= refundableUntil(s.startTime, hours)).length;
    if (refunded === 0)
      return {
        before: plural(reader.locale, p.noRefund, hours),
        after: p.notRefundedDone,
      };
    const amount = formatMoney(share * refunded, checkout.currency, INTL_TAG[reader.locale]);
    return {
      before: fill(p.refundFull, { amount }),
      after: fill(p.refundOnItsWay, { amount }),
    };
  };
  return { this: words([booking]), following: words([booking, ...later]) };
}
