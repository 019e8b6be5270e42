import { describe, expect, it } from "vitest";
import type { BookingRow } from "@/db/schema";
import type { BookingFacts } from "./booking-facts";
import { composeBookingMail, type BookingMailInput, type MailPayment } from "./booking-mail";
import { composePaymentLateMail } from "./payment-late-mail";

// A paid booking's messages (decisions §20): the confirmation says what was paid, the cancellation
// whether the money goes back, the host's say the same in host words, and a payment that landed
// after its hold had ended is refunded in words the guest reads in their language and zone (the
// suite runs these under America/New_York too: no time here may follow the process's zone).

const start = new Date("2031-12-02T15:00:00Z"); // Tuesday 10:00 in New York, 16:00 in Berlin
const end = new Date("2031-12-02T15:30:00Z");

function factsFor(guestLanguage: string, guestTimezone = "Europe/Berlin", status = "confirmed", cancelledBy: string | null = null): BookingFacts {
  const booking = {
    id: "bkg_paid1",
    guestName: "Grace Guest",
    guestEmail: "grace@example.com",
    guestTimezone,
    guestLanguage,
    location: "",
    status,
    cancelledBy,
    cancellationReason: null,
    startTime: start,
    endTime: end,
    customAnswers: {},
  } as unknown as BookingRow;
  const host = { userId: "usr_ada", fullName: "Ada", email: "ada@example.com", timezone: "Europe/Berlin", language: "en" };
  return { booking, title: "Coaching", questions: [], host, hosts: [host], team: null };
}

const mail = (event: BookingMailInput["event"], reader: "guest" | "host", payment: MailPayment, facts = factsFor("en")) =>
  composeBookingMail({ event, reader, facts, start, end, sequence: 0, from: "bookings@example.com", messageId: "<m@example.com>", stamp: start, payment });

describe("a paid booking's messages", () => {
  it("the guest's confirmation says what was paid; the host's too", async () => {
    const paid: MailPayment = { status: "paid", amount: 4990, currency: "eur" };
    expect((await mail("booking.created", "guest", paid)).text).toMatch(/Paid: +€49\.90/);
    expect((await mail("booking.created", "host", paid)).text).toMatch(/Payment: +Paid €49\.90/);
    // In the guest's language and its way of writing amounts.
    expect((await mail("booking.created", "guest", paid, factsFor("de"))).text).toMatch(/Bezahlt: +49,90\s€/);
  });

  it("the cancellation says the refund is on its way, or that it is not refunded", async () => {
    const cancelled = factsFor("en", "Europe/Berlin", "cancelled", "guest");
    const refunded = await mail("booking.cancelled", "guest", { status: "refunded", amount: 4990, currency: "eur" }, cancelled);
    expect(refunded.text).toContain("A refund of €49.90 is on its way to you.");
    expect(refunded.html).toContain("A refund of €49.90 is on its way to you.");
    const kept = await mail("booking.cancelled", "guest", { status: "kept", amount: 4990, currency: "eur", hours: 24 }, cancelled);
    expect(kept.text).toContain("This cancellation is not refunded (less than 24 hours before the start).");
    expect((await mail("booking.cancelled", "host", { status: "refunded", amount: 4990, currency: "eur" }, cancelled)).text).toMatch(/Payment: +Refunded to the guest in full \(€49\.90\)/);
    expect((await mail("booking.cancelled", "host", { status: "kept", amount: 4990, currency: "eur", hours: 24 }, cancelled)).text).toContain(
      "Paid €49.90, not refunded (the guest cancelled less than 24 hours before the start)",
    );
  });

  it("a free booking's messages say nothing of money", async () => {
    const free = await composeBookingMail({ event: "booking.created", reader: "guest", facts: factsFor("en"), start, end, sequence: 0, from: "b@example.com", messageId: "<m@example.com>", stamp: start });
    expect(free.text).not.toMatch(/Paid|refund/);
  });
});

describe("the late payment's email", () => {
  const late = (language: string, zone: string) =>
    composePaymentLateMail({ facts: factsFor(language, zone, "cancelled", "system"), amount: 4990, currency: "eur", bookAgainUrl: "https://booking.example.com/ada/coaching", from: "b@example.com", messageId: "<pay_1.late@example.com>" });

  it("says the payment came after the hold, that nothing was booked and it is refunded in full, with the time held in the guest's zone", async () => {
    const m = await late("en", "America/New_York");
    expect(m.subject).toBe("Your payment for Coaching was refunded");
    expect(m.to).toEqual({ name: "Grace Guest", address: "grace@example.com" });
    expect(m.text).toContain(
      "Your payment of €49.90 for Coaching with Ada arrived after the time we held for you had been released, so nothing was booked. We have refunded it in full; it shows on your statement in 5–10 days.",
    );
    expect(m.text).toMatch(/Tuesday, December 2, 2031, 10:00 – 10:30 AM/);
    expect(m.text).toContain("https://booking.example.com/ada/coaching");
    expect(m.html).toContain("https://booking.example.com/ada/coaching");
    expect(`${m.text}${m.html}`).not.toMatch(/\d{4}-\d{2}-\d{2}T\d|America\/New_York/);
    expect((await late("en", "Europe/Berlin")).text).toMatch(/4:00 – 4:30 PM|16:00 – 16:30/);
  });

  it("is written in the guest's language", async () => {
    const subjects = await Promise.all(["de", "fr", "es", "pt"].map(async (l) => (await late(l, "Europe/Berlin")).subject));
    expect(subjects).toEqual([
      "Ihre Zahlung für Coaching wurde erstattet",
      "Votre paiement pour Coaching a été remboursé",
      "Tu pago de Coaching fue reembolsado",
      "Seu pagamento de Coaching foi reembolsado",
    ]);
    expect((await late("de", "Europe/Berlin")).text).toMatch(/Ihre Zahlung von 49,90\s€ für Coaching mit Ada/);
  });
});
