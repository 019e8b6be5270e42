import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db";
import { openPostgres, type Database } from "@/db/client";
import { bookings, outboxJobs, paymentRefunds, payments, users } from "@/db/schema";
import { sweepUnpaidHolds } from "@/lib/jobs/housekeeping";
import type { StripeEvent } from "@/lib/payments/stripe";
import { cancelBookingAsGuest, cancelBookingAsHost } from "@/lib/services/bookings/cancel";
import { applyStripeEvent, type EventOutcome } from "@/lib/services/bookings/payment-events";
import { startAppServer, type AppServer } from "../support/app-server";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { startFakeStripe, type FakeEvent, type FakeSession, type FakeStripe } from "../support/fake-stripe";
import { configure, testWorker } from "../support/jobs";

// Paid bookings under races (decisions §20), as two instances of the service would meet them on
// one PostgreSQL: each instance is a connection pool of its own. A guest's payment (Stripe's
// signed event, over the real webhook or applied directly, and Stripe's duplicate of it at the
// same moment) races the hold's expiry sweep of both instances; each booking ends in exactly one
// of the two consistent outcomes, never a mix. Three cancels of one paid booking at once decide
// one refund, and Stripe is asked for it once.
//
// On PGlite (one process, one connection) the same calls run on the one database and serialise;
// the outcomes must hold all the same, so the file runs there too.

const test = withTestDatabase({ isolated: true });
const onPostgres = process.env.TEST_DB === "postgres";
// PGlite serialises the calls: a few rounds show the outcomes hold there; the races are PostgreSQL's.
const ROUNDS = onPostgres ? 20 : 6;

let stripe: FakeStripe;
let app: AppServer;
/** The second instance's pool (PostgreSQL); on PGlite the one database. */
let second: Database | undefined;
beforeAll(async () => {
  app = await startAppServer();
  stripe = await startFakeStripe({
    webhookUrl: `${app.url}/api/v1/hooks/stripe`,
  });
  if (onPostgres) second = await openPostgres(test.url()!, { max: 8 });
});
afterAll(async () => {
  await second?.close();
  await stripe?.close();
  await app?.close();
});

const instanceA = (): Db => test.current().db;
const instanceB = (): Db => (second ?? test.current()).db;

function paymentsOn() {
  configure({
    payments: {
      secretKey: stripe.secretKey,
      webhookSecret: stripe.webhookSecret,
      apiUrl: stripe.url,
      holdMinutes: 15,
    },
  });
}

const sessionOf = (checkoutUrl: string) => checkoutUrl.split("/").pop()!;

/** A host of its own (its own booking locks) with a paid event type, and one booking of it held awaiting payment. */
async function heldBooking(): Promise<{
  host: TestHost;
  bookingId: string;
  cancelToken: string;
  sessionId: string;
}> {
  const host = await createHost({ timezone: "Europe/Berlin" });
  const et = await createEventType(host, {
    durationMinutes: 30,
    price: { amount: 4990, currency: "eur" },
  });
  const date = dateIn(4, host.timezone);
  await openOnly(host, date);
  const [first] = await getSlots(host, et.slug, date);
  const res = await book(host, et.slug, first!.startTime);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return {
    host,
    bookingId: res.body.id,
    cancelToken: String(res.body.cancelUrl).split("/").pop()!,
    sessionId: sessionOf(res.body.payment.checkoutUrl),
  };
}

/** Runs the outbox's due jobs at `now` until none is left (the refund and Checkout jobs). */
async function runJobs(now = Date.now()) {
  const worker = await testWorker();
  for (let i = 0; i < 10 && (await worker.runDueJobs(now)) > 0; i++);
}

/** Everything a booking's outcome is read from. */
async function stateOf(bookingId: string) {
  const db = instanceA();
  const [booking] = await db.select().from(bookings).where(eq(bookings.id, bookingId));
  const [payment] = await db.select().from(payments).where(eq(payments.id, booking!.paymentId!));
  const refunds = await db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, payment!.id));
  const jobs = await db.select({ kind: outboxJobs.kind, payload: outboxJobs.payload }).from(outboxJobs);
  const kinds = jobs
    .filter((j) => {
      const payload = j.payload as { bookingId?: string; paymentId?: string };
      return payload.bookingId === bookingId || payload.paymentId === payment!.id;
    })
    .map((j) => j.kind);
  const count = (kind: string) => kinds.filter((k) => k === kind).length;
  return { booking: booking!, payment: payment!, refunds, count };
}

describe("a payment and the hold's expiry racing on two instances", () => {
  it(`end each of ${ROUNDS} bookings one way: confirmed and paid, or cancelled with the late payment given back`, async () => {
    paymentsOn();
    const held: Array<
      Awaited<ReturnType<typeof heldBooking>> & {
        event: FakeEvent;
        holdEnds: number;
      }
    > = [];
    for (let i = 0; i < ROUNDS; i++) {
      const booking = await heldBooking();
      // The guest pays at Stripe; its event is not sent yet.
      const event = await stripe.complete(booking.sessionId, { send: false });
      const [payment] = await instanceA().select().from(payments).where(eq(payments.checkoutSessionId, booking.sessionId));
      held.push({
        ...booking,
        event,
        holdEnds: payment!.holdExpiresAt.getTime(),
      });
    }
    // Each hold ends after the one before, so a sweep at the moment one ends finds only it due.
    for (let i = 1; i < ROUNDS; i++) expect(held[i]!.holdEnds).toBeGreaterThan(held[i - 1]!.holdEnds);

    // Booking by booking, all at once: its payment's event reaches instance A (every other one over
    // the real webhook, signed; the rest applied directly at the moment the hold ends), Stripe's
    // duplicate of it reaches instance B, and both instances sweep the holds whose time ran out.
    const outcomes: EventOutcome[][] = [];
    let swept = 0;
    for (const [i, { event, holdEnds }] of held.entries()) {
      const first =
        i % 2 === 0
          ? stripe.send(event).then((r) => {
              expect(r.status, r.body).toBe(200);
              return (JSON.parse(r.body) as { outcome: EventOutcome }).outcome;
            })
          : applyStripeEvent(instanceA(), event as unknown as StripeEvent, holdEnds);
      const [a, b, sweptA, sweptB] = await Promise.all([
        first,
        applyStripeEvent(instanceB(), event as unknown as StripeEvent, holdEnds),
        sweepUnpaidHolds(instanceA(), holdEnds),
        sweepUnpaidHolds(instanceB(), holdEnds),
      ]);
      outcomes.push([a, b]);
      swept += sweptA + sweptB;
    }

    let late = 0;
    for (const [i, { bookingId }] of held.entries()) {
      // The event is applied once; its duplicate finds it applied.
      expect(outcomes[i]!.slice().sort(), `booking ${i}`).toEqual(["applied", "duplicate"]);
      const { booking, payment, refunds, count } = await stateOf(bookingId);
      const seen = `booking ${i}: ${JSON.stringify({ status: booking.status, paymentStatus: booking.paymentStatus, payment: payment.status, refunds: refunds.length })}`;
      expect(payment.status, seen).toBe("paid");
      if (booking.status === "confirmed") {
        expect(booking.paymentStatus, seen).toBe("paid");
        expect(refunds, seen).toEqual([]);
        expect(count("booking.created"), seen).toBe(1);
        expect(count("booking.paid"), seen).toBe(1);
        expect(count("email.payment_late"), seen).toBe(0);
      } else {
        late += 1;
        expect(booking, seen).toMatchObject({
          status: "cancelled",
          cancelledBy: "system",
          paymentStatus: "refunded",
        });
        expect(refunds, seen).toEqual([
          expect.objectContaining({
            reason: "late_payment",
            amount: 4990,
            bookingId,
          }),
        ]);
        expect(count("email.payment_late"), seen).toBe(1);
        expect(count("booking.created"), seen).toBe(0);
        expect(count("booking.paid"), seen).toBe(0);
        // The hold ended without telling anyone: nothing was ever told of this booking.
        expect(count("booking.cancelled"), seen).toBe(0);
      }
    }
    // Each hold the sweeps ended is one given back, and no hold was ended twice.
    expect(swept).toBe(late);

    // Stripe is asked to give back exactly the late payments, once each.
    await runJobs(held.at(-1)!.holdEnds);
    for (const { event } of held) {
      const { payment_intent: intent, metadata } = event.data.object as FakeSession;
      const { booking } = await stateOf(metadata.bookingId!);
      expect(stripe.refundCount(intent!), `booking ${booking.id} (${booking.status})`).toBe(booking.status === "confirmed" ? 0 : 1);
    }
  });
});

describe("a paid booking cancelled three times at once", () => {
  it("decides one refund and Stripe gives it back once (the host twice on two instances, the guest once)", async () => {
    paymentsOn();
    const paid = [];
    for (let i = 0; i < 5; i++) {
      const held = await heldBooking();
      await stripe.complete(held.sessionId);
      const [hostRow] = await instanceA().select().from(users).where(eq(users.id, held.host.id));
      paid.push({ ...held, hostRow: hostRow! });
    }
    const now = Date.now();
    const cancels = paid.flatMap(({ hostRow, bookingId, cancelToken }) => [
      cancelBookingAsHost(instanceA(), hostRow, bookingId, "Ill", now),
      cancelBookingAsHost(instanceB(), hostRow, bookingId, "Ill", now),
      cancelBookingAsGuest(instanceB(), cancelToken, now),
    ]);
    const settled = await Promise.allSettled(cancels);
    // A host's second cancel of a booking the guest cancelled a moment before may be refused as no longer modifiable.
    for (const s of settled) if (s.status === "rejected") expect(s.reason).toMatchObject({ code: "booking_not_modifiable" });

    await runJobs();
    for (const { bookingId } of paid) {
      const { booking, payment, refunds, count } = await stateOf(bookingId);
      expect(booking).toMatchObject({
        status: "cancelled",
        paymentStatus: "refunded",
      });
      expect(refunds).toHaveLength(1);
      expect(refunds[0]).toMatchObject({
        status: "succeeded",
        amount: 4990,
        reason: booking.cancelledBy === "host" ? "host_cancelled" : "guest_cancelled",
      });
      expect(stripe.refundCount(payment.paymentIntentId!)).toBe(1);
      expect(count("booking.cancelled")).toBe(1);
      expect(count("booking.refunded")).toBe(1);
    }
    const ids = paid.map((p) => p.bookingId);
    expect(await instanceA().select().from(paymentRefunds).where(inArray(paymentRefunds.bookingId, ids))).toHaveLength(paid.length);
  });
});
