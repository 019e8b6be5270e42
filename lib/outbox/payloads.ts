import "server-only";
import { z } from "zod";
import { BookingEventPayload } from "./booking-events";

// What each job kind carries: written by the services that enqueue (lib/outbox/enqueue.ts) and
// read by the handlers that run them (lib/jobs). Both sides import these; neither imports the other.

/** One booking email to one reader (decisions §12): the event as the booking's change left it. */
export const BookingEmailJob = z.object({
  reader: z.enum(["guest", "host"]),
  /** The host a host's email goes to (one per host of a team booking); older rows: the booking's host. */
  hostId: z.string().optional(),
  /** The booking (also in `event`), at the top level where a guest's erasure finds it by index; older rows lack it. */
  bookingId: z.string().optional(),
  eventJobId: z.number().int(),
  event: BookingEventPayload,
});
export type BookingEmailJob = z.infer<typeof BookingEmailJob>;

/** One webhook message to one endpoint. */
export const WebhookDeliveryJob = z.object({
  webhookId: z.string(),
  /** The booking a booking event's message is about, where a guest's erasure finds it by index (none for a test message; older rows lack it). */
  bookingId: z.string().optional(),
  /** The webhook-id header: chosen once when the message is made. */
  messageId: z.string(),
  eventType: z.string(),
  body: z.string(),
});
export type WebhookDeliveryJob = z.infer<typeof WebhookDeliveryJob>;

/** Bring the host's calendar to the booking's present state. */
export const CalendarWriteJob = z.object({ bookingId: z.string(), hostId: z.string() });
export type CalendarWriteJob = z.infer<typeof CalendarWriteJob>;

/** The link to confirm a new address, its secret sealed (the table keeps only its hash). */
export const EmailChangeEmailJob = z.object({ changeId: z.string(), sealedToken: z.string() });
export type EmailChangeEmailJob = z.infer<typeof EmailChangeEmailJob>;

/** The notice to the address an account just left: who would otherwise never learn of it. */
/** `language`: the host's, for the notice's words (absent in a job written before it was: English). */
export const EmailChangedNoticeJob = z.object({ changeId: z.string(), oldEmail: z.string(), newEmail: z.string(), fullName: z.string(), language: z.string().optional() });
export type EmailChangedNoticeJob = z.infer<typeof EmailChangedNoticeJob>;

/**
 * The notice to an address that already has an account, when another account asked to move to
 * it. The account is read again when it is sent (its name, address and language then); no
 * address rides here, and nothing about who asked.
 */
export const EmailTakenNoticeJob = z.object({ attemptId: z.string(), userId: z.string() });
export type EmailTakenNoticeJob = z.infer<typeof EmailTakenNoticeJob>;

/** A team invitation by email; the sign-up link's secret sealed (the table keeps only its hash). */
export const TeamInvitationEmailJob = z.object({ invitationId: z.string(), sealedToken: z.string() });
export type TeamInvitationEmailJob = z.infer<typeof TeamInvitationEmailJob>;

/** The welcome at sign-up: the host, read again when it is sent (their name, address and page as they are then). */
export const WelcomeEmailJob = z.object({ userId: z.string() });
export type WelcomeEmailJob = z.infer<typeof WelcomeEmailJob>;

/** The password reset link, its secret sealed (the table keeps only its hash). */
export const PasswordResetEmailJob = z.object({ resetId: z.string(), sealedToken: z.string() });
export type PasswordResetEmailJob = z.infer<typeof PasswordResetEmailJob>;

/**
 * One reminder of one booking to one reader (decisions §16), made by the booking's event
 * fan-out. It names the start it was made for: at its time it goes out only if the booking is
 * still confirmed and still starts then (a reschedule's older reminders and a cancel's make
 * nothing). No guest data rides here: the handler reads the booking.
 */
export const ReminderJob = z.object({
  bookingId: z.string(),
  /** The booking's SEQUENCE when the reminder was made (the dedupe key carries it too). */
  sequence: z.number().int(),
  /** The start (ISO) the reminder is for. */
  startTime: z.string(),
  minutesBefore: z.number().int(),
  reader: z.enum(["guest", "host"]),
  /** The host a host's reminder goes to (each host of a team booking gets one). */
  hostId: z.string().optional(),
});
export type ReminderJob = z.infer<typeof ReminderJob>;

/**
 * The warning to one host that a request (a pending booking) expires soon unanswered. It names
 * the start it was made for: at its time it goes out only if the booking is still pending, still
 * starts then, and the host still hosts it. No guest data rides here: the handler reads the booking.
 */
export const RequestExpiryJob = z.object({
  bookingId: z.string(),
  /** The booking's SEQUENCE when the warning was made (the dedupe key carries it too). */
  sequence: z.number().int(),
  /** The start (ISO): when the request expires. */
  startTime: z.string(),
  hostId: z.string(),
});
export type RequestExpiryJob = z.infer<typeof RequestExpiryJob>;

/**
 * A reconnect email about one broken calendar connection (decisions §21): the first (an hour
 * after it broke) or the second (a day later). It names the breakage by its start: a connection
 * fixed and broken again since is a new breakage, and this message is dropped unsent.
 */
export const BrokenCalendarJob = z.object({
  connectionId: z.string(),
  /** 1 or 2. */
  notice: z.number().int().min(1).max(2),
  /** When the connection broke (ISO). */
  brokenSince: z.string(),
});
export type BrokenCalendarJob = z.infer<typeof BrokenCalendarJob>;

/** A refund to ask Stripe for (payment_refunds' row). */
export const PaymentRefundJob = z.object({ refundId: z.string() });
export type PaymentRefundJob = z.infer<typeof PaymentRefundJob>;

/** A payment whose Checkout Session is to be closed at Stripe, or whose late payment the guest is told of. */
export const PaymentJob = z.object({ paymentId: z.string() });
export type PaymentJob = z.infer<typeof PaymentJob>;
