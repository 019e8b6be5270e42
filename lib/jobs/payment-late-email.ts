import "server-only";
import { getConfig } from "@/lib/config";
import { bookingPageUrl, siteDomain, teamBookingPageUrl } from "@/lib/links";
import { composePaymentLateMail } from "@/lib/notifications/payment-late-mail";
import { sendMail } from "@/lib/notifications/mail-transport";
import { PAYMENT_LATE_EMAIL } from "@/lib/outbox/kinds";
import { PaymentJob } from "@/lib/outbox/payloads";
import { latePaymentFacts } from "@/lib/services/bookings/late-payment";
import type { JobHandler } from "./types";

// The late payment's email to the guest (decisions §20): written by payment-events.ts when a
// payment lands after its hold ended, in the transaction that decided its refund. A payment or
// booking gone since (an account deleted), or a guest erased, leaves no one to write to.

export function paymentLateEmail(): JobHandler {
  return {
    kind: PAYMENT_LATE_EMAIL,
    async run({ db, job }) {
      const { paymentId } = PaymentJob.parse(job.payload);
      const found = await latePaymentFacts(db, paymentId);
      if (!found || found.facts.booking.guestEmail === "") return { status: "done" };
      const { payment, facts, page } = found;
      // Book again where the guest booked: the event type's page on its host's or its team's.
      const bookAgainUrl = page.teamSlug ? teamBookingPageUrl(page.teamSlug, page.slug) : page.username ? bookingPageUrl(page.username, page.slug) : undefined;
      if (!bookAgainUrl) return { status: "done" };
      await sendMail(
        await composePaymentLateMail({
          facts,
          amount: payment.amount,
          currency: payment.currency,
          bookAgainUrl,
          from: getConfig().mailFrom,
          messageId: `<${payment.id}.late@${siteDomain()}>`,
        }),
      );
      return { status: "done" };
    },
  };
}
