import "server-only";
// Job kinds besides the booking events themselves (whose kind is the event name).
export const WEBHOOK_DELIVERY = "webhook.deliver";
export const BOOKING_EMAIL = "email.booking";
export const CALENDAR_WRITE = "calendar.write";
export const PASSWORD_RESET_EMAIL = "email.password_reset";
export const EMAIL_CHANGE_EMAIL = "email.email_change";
export const EMAIL_CHANGED_NOTICE = "email.email_changed";
/** To an address someone asked to move another account to, when it already has one. */
export const EMAIL_TAKEN_NOTICE = "email.email_taken";
/** The welcome at sign-up, with the links to share. */
export const WELCOME_EMAIL = "email.welcome";
/** One reminder email to one reader, due at start − minutesBefore (decisions §16). */
export const REMINDER_EMAIL = "reminder.email";
/** One reminder call to the guest (the outbound-calling service's reminder agent), due with the email. */
export const REMINDER_CALL = "reminder.call";
/** Every kind a booking's reminders are made of: what a cancel drops. */
export const REMINDER_KINDS = [REMINDER_EMAIL, REMINDER_CALL] as const;
/** An invitation to a team, to the email address it was sent to (lib/services/teams/invite-by-email.ts). */
export const TEAM_INVITATION_EMAIL = "email.team_invitation";
/** To each host of a request still unanswered, a few hours before it expires at its start (lib/services/bookings/request-expiry-warning.ts). */
export const REQUEST_EXPIRY_EMAIL = "email.request_expiring";
/** To a host whose calendar connection has been broken for an hour, and once more a day later (lib/services/calendars/broken-notices.ts). */
export const BROKEN_CALENDAR_EMAIL = "email.calendar_broken";
/** Asks Stripe to give a refund's money back (decisions §20): retried until it answers, under the refund's id as the Idempotency-Key. */
export const PAYMENT_REFUND = "payment.refund";
/** Closes a Checkout Session at Stripe once its hold has ended unpaid, so a late payment cannot land. */
export const CHECKOUT_EXPIRE = "payment.expire_checkout";
/** To the guest whose payment landed after their hold had ended: the time was released and the money is on its way back. */
export const PAYMENT_LATE_EMAIL = "email.payment_late";
