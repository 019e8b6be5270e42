import "server-only";
import { bookingEvents } from "@/lib/outbox/booking-events";
import { bookingEmail } from "./booking-email";
import { bookingEventFanOut } from "./run-booking-effects";
import { calendarWrite } from "./calendar-write";
import { emailChangeEmail } from "./email-change-email";
import { emailChangedNotice } from "./email-changed-notice";
import { emailTakenNotice } from "./email-taken-notice";
import { passwordResetEmail } from "./password-reset-email";
import { reminderCall, reminderEmail } from "./reminder";
import { requestExpiryEmail } from "./request-expiry-email";
import { brokenCalendarEmail } from "./broken-calendar-email";
import { teamInvitationEmail } from "./team-invitation-email";
import type { JobHandler } from "./types";
import { webhookDelivery, type WebhookDeliveryOptions } from "./webhook-delivery";
import { welcomeEmail } from "./welcome-email";
import { checkoutExpire, paymentRefund } from "./payment-refund";
import { paymentLateEmail } from "./payment-late-email";

/**
 * Every job kind this service runs, by kind. A new kind is one more handler here; a worker
 * claims only the kinds it has, so a process that does not know a newer kind leaves those jobs
 * to one that does.
 */
export function defaultJobHandlers(options: { webhooks?: WebhookDeliveryOptions } = {}): JobHandler[] {
  return [...bookingEvents.map(bookingEventFanOut), webhookDelivery(options.webhooks), bookingEmail(), calendarWrite(), passwordResetEmail(), emailChangeEmail(), emailChangedNotice(), emailTakenNotice(), teamInvitationEmail(), welcomeEmail(), reminderEmail(), reminderCall(), requestExpiryEmail(), brokenCalendarEmail(), paymentRefund(), checkoutExpire(), paymentLateEmail()];
}
