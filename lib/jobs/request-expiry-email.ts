import "server-only";
import { getConfig } from "@/lib/config";
import { dashboardBookingUrl, siteDomain } from "@/lib/links";
import { sendMail } from "@/lib/notifications/mail-transport";
import { composeRequestExpiryMail } from "@/lib/notifications/request-expiry-mail";
import { REQUEST_EXPIRY_EMAIL } from "@/lib/outbox/kinds";
import { RequestExpiryJob } from "@/lib/outbox/payloads";
import { expiryWarningToSend } from "@/lib/services/bookings/request-expiry-warning";
import type { JobHandler } from "./types";

// The warning to a host that a request expires soon unanswered (made by the fan-out, lib/services/
// bookings/request-expiry-warning.ts). It checks the booking first: a request answered, cancelled,
// moved or erased since is done without a word.

export function requestExpiryEmail(): JobHandler {
  return {
    kind: REQUEST_EXPIRY_EMAIL,
    async run({ db, job, now }) {
      const warning = RequestExpiryJob.parse(job.payload);
      const facts = await expiryWarningToSend(db, warning, now);
      if (!facts) return { status: "done" };
      await sendMail(
        await composeRequestExpiryMail({
          facts,
          dashboardUrl: dashboardBookingUrl(warning.bookingId),
          now,
          from: getConfig().mailFrom,
          messageId: `<${warning.bookingId}.expiring.${warning.sequence}.host-${warning.hostId}@${siteDomain()}>`,
        }),
      );
      return { status: "done" };
    },
  };
}
