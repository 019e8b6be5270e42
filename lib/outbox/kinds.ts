import "server-only";
// Job kinds besides the booking events themselves (whose kind is the event name).
export const WEBHOOK_DELIVERY = "webhook.deliver";
export const BOOKING_EMAIL = "email.booking";
export const CALENDAR_WRITE = "calendar.write";
export const PASSWORD_RESET_EMAIL = "email.password_reset";
export const EMAIL_CHANGE_EMAIL = "email.email_change";
export const EMAIL_CHANGED_NOTICE = "email.email_changed";
