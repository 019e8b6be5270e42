// Prints a paid session's email (decisions §20) as JSON {subject, html, text}, for e2e/emails.spec.ts
// to draw in Chromium: "late", the late payment's refund (it follows a payment Stripe sends after
// the hold ended, which a browser test's server cannot wait for), or "paid", the guest's
// confirmation of a paid booking; the words and layout are the same modules'.
// Run with tsx --conditions=react-server.
import type { BookingRow } from "@/db/schema";
import type { BookingFacts } from "@/lib/notifications/booking-facts";
import { composeBookingMail } from "@/lib/notifications/booking-mail";
import { composePaymentLateMail } from "@/lib/notifications/payment-late-mail";

const kind = process.argv[2] ?? "late";
const language = process.argv[3] ?? "en";
const start = new Date("2026-12-01T15:00:00Z");
const booking = {
  id: "bkg_paidmail",
  guestName: "Grace Brewster Murray Hopper-Montgomery-Featherstonehaugh",
  guestEmail: "grace@example.com",
  guestTimezone: "America/New_York",
  guestLanguage: language,
  location: "",
  status: kind === "late" ? "cancelled" : "confirmed",
  cancelledBy: kind === "late" ? "system" : null,
  cancellationReason: null,
  startTime: start,
  endTime: new Date(start.getTime() + 3_600_000),
  customAnswers: {},
} as unknown as BookingRow;
const host = { userId: "usr_ada", fullName: "Ada", email: "ada@example.com", timezone: "Europe/Berlin", language: "en" };
const facts: BookingFacts = { booking, title: "Coaching", questions: [], host, hosts: [host], team: null };
const links = { cancelUrl: "https://booking.example/cancel/t", rescheduleUrl: "https://booking.example/reschedule/t", manageUrl: "https://booking.example/booking/t", icsUrl: "https://booking.example/booking/t/ics" };
const mail =
  kind === "late"
    ? await composePaymentLateMail({ facts, amount: 4990, currency: "eur", bookAgainUrl: "https://booking.example/ada/coaching", from: "Booking <no-reply@booking.example>", messageId: "<late@booking.example>" })
    : await composeBookingMail({
        event: "booking.created",
        reader: "guest",
        facts,
        start,
        end: booking.endTime,
        sequence: 0,
        guestLinks: links,
        from: "Booking <no-reply@booking.example>",
        messageId: "<paid@booking.example>",
        stamp: start,
        payment: { status: "paid", amount: 4990, currency: "eur" },
      });
process.stdout.write(JSON.stringify({ subject: mail.subject, html: mail.html, text: mail.text }));
