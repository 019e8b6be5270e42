// The value lists of columns that take one of a few values, and the question type, without
// drizzle: the API's schemas (lib/schemas) import them from here, and the dashboard's forms run
// those schemas in the browser, where the tables have no business.

// The answer a question takes; lib/question-answers.ts holds each type's rules (one place for
// the API and the guest's browser). The column is jsonb: a new type needs no migration.
export const questionTypes = ["text", "long_text", "email", "number", "phone", "single_choice", "checkboxes"] as const;
export type QuestionType = (typeof questionTypes)[number];
/** How a single-choice question is shown to the guest. */
export const choiceDisplays = ["radio", "dropdown"] as const;
export type ChoiceDisplay = (typeof choiceDisplays)[number];
export type CustomQuestion = {
  id: string;
  label: string;
  required: boolean;
  type: QuestionType;
  /** single_choice and checkboxes only: what the guest chooses from, in the order shown. */
  options?: string[];
  /** single_choice only. */
  display?: ChoiceDisplay;
};

/**
 * A booking's life: `awaiting_payment` holds the time of a paid event type while the guest pays
 * (decisions §20), then it is confirmed (or pending, with approval); a request is `pending` until
 * the host answers.
 */
export const bookingStatuses = ["pending", "confirmed", "cancelled", "awaiting_payment"] as const;
export type BookingStatus = (typeof bookingStatuses)[number];

/** Who cancelled a booking: the host (or declined it), the guest, or the system (a request left unconfirmed until its start). */
export const cancellers = ["host", "guest", "system"] as const;
export type Canceller = (typeof cancellers)[number];

/** A paid event type's price (decisions §20): minor units of an ISO 4217 currency (lower case), and until how many hours before the start a guest's cancel is refunded. */
export type Price = { amount: number; currency: string; refundableUntilHours: number };
/** What a booking's payment is, as the booking shows it: not paid yet, paid, or given back (this booking's share). */
export const bookingPaymentStatuses = ["unpaid", "paid", "refunded"] as const;
export type BookingPaymentStatus = (typeof bookingPaymentStatuses)[number];
/** A Checkout's life at Stripe: open and unpaid, paid, or ended unpaid (the hold expired, or the payment could not start). */
export const paymentStatuses = ["unpaid", "paid", "expired", "failed"] as const;
/** Why money went back (decisions §20). */
export const refundReasons = ["host_cancelled", "declined", "guest_cancelled", "expired_request", "late_payment"] as const;
export type RefundReason = (typeof refundReasons)[number];

/** Who a reminder goes to (decisions §16). */
export const reminderRecipients = ["guest", "host", "both"] as const;
export type Reminder = { minutesBefore: number; to: (typeof reminderRecipients)[number] };
/** Bookings of an event type per host: per local day and per ISO week (decisions §16). */
export type BookingLimits = { perDay?: number; perWeek?: number };
/** A seated event type (decisions §19): up to `max` guests share one start, each with a booking of their own. */
export type Seats = { max: number; showRemaining: boolean };
/** A recurring event type (decisions §19): a guest books up to `maxOccurrences` starts, `everyWeeks` apart. */
export type Recurrence = { everyWeeks: number; maxOccurrences: number };

// The outbound-calling service's agents, and a call's life.
export const callAgents = ["reminder", "followup"] as const;
export type CallAgent = (typeof callAgents)[number];

/**
 * A call's life: `requested` while we ask the provider, then the provider's own words (Twilio's
 * CallStatus values) as its status callbacks report them; `failed` too when the provider could
 * not be reached or refused the call.
 */
export const providerCallStatuses = ["queued", "initiated", "ringing", "in-progress", "completed", "busy", "no-answer", "canceled", "failed"] as const;
export const callStatuses = ["requested", ...providerCallStatuses] as const;
export type CallStatus = (typeof callStatuses)[number];
