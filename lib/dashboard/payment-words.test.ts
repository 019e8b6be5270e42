import { describe, expect, it } from "vitest";
import { bookingPaymentWords, paymentStateWords } from "./payment-words";

const base = { currency: "eur", holdExpiresAt: "2027-03-15T09:15:00.000Z", refunds: [] };

describe("payment words", () => {
  it("says each state of a payment in words, its times in the host's zone", () => {
    expect(paymentStateWords({ ...base, status: "paid" }, "Europe/Berlin", "en")).toEqual(["Paid"]);
    expect(paymentStateWords({ ...base, status: "unpaid" }, "Europe/Berlin", "en")).toEqual(["Awaiting payment until 10:15 AM"]);
    expect(paymentStateWords({ ...base, status: "expired" }, "Europe/Berlin", "en")).toEqual(["Not paid in time"]);
    expect(paymentStateWords({ ...base, status: "failed" }, "Europe/Berlin", "en")).toEqual(["Payment failed"]);
  });

  it("tells refunds with their amount in the host's locale and their reason", () => {
    const refunds = [
      { amount: 4990, reason: "host_cancelled" as const, status: "succeeded" as const },
      { amount: 4990, reason: "guest_cancelled" as const, status: "pending" as const },
    ];
    expect(paymentStateWords({ ...base, status: "paid", refunds }, "UTC", "en")).toEqual(["Paid", "Refunded €49.90 (host cancelled)", "Refund pending: €49.90 (guest cancelled)"]);
    expect(paymentStateWords({ ...base, status: "paid", refunds: refunds.slice(0, 1) }, "UTC", "de")[1]).toBe("Refunded 49,90\u00a0€ (host cancelled)");
  });

  it("badges a booking's payment", () => {
    expect(bookingPaymentWords({ status: "paid", amount: 4990, currency: "eur" }, "en")).toBe("Paid €49.90");
    expect(bookingPaymentWords({ status: "refunded", amount: 500, currency: "jpy" }, "en")).toBe("Refunded ¥500");
    expect(bookingPaymentWords({ status: "unpaid", amount: 4990, currency: "eur" }, "en")).toBe("Awaiting payment €49.90");
    expect(bookingPaymentWords({ status: "unpaid", amount: 4990, currency: "eur" }, "en", "cancelled")).toBe("Not paid €49.90");
  });
});
