import "server-only";
import { and, asc, count, desc, eq, gte, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { bookingHosts, bookings, eventTypes, paymentRefunds, payments, type UserRow } from "@/db/schema";
import { getConfig } from "@/lib/config";
import type { PaymentList, PaymentListQuery } from "@/lib/schemas/payment";
import { dayOfDate, ZoneOffsets } from "@/lib/slots";
import { clampInstant, isoUtc } from "@/lib/time/instants";

type Query = z.output<typeof PaymentListQuery>;
type Answer = z.output<typeof PaymentList>;

/**
 * The payments a host may see: those of the bookings they host. A payment names the booking's
 * first host; every other host of a team booking finds it through booking_hosts of a booking it
 * paid for (a collective booking's hosts, or a series whose later occurrences went to another).
 */
function visibleTo(host: UserRow): SQL {
  return or(
    eq(payments.hostId, host.id),
    sql`exists (select 1 from ${bookings} join ${bookingHosts} on ${bookingHosts.bookingId} = ${bookings.id}
      where ${bookings.paymentId} = ${payments.id} and ${bookingHosts.userId} = ${host.id})`,
  )!;
}

/** From and to are dates in the host's zone: the payments made from the first's midnight to the end of the second. */
function inRange(host: UserRow, query: Pick<Query, "from" | "to">): (SQL | undefined)[] {
  const zone = ZoneOffsets.of(host.timezone);
  const edge = (day: number) => new Date(clampInstant(zone.instantAtOrAfter(day * 1440)));
  return [query.from ? gte(payments.createdAt, edge(dayOfDate(query.from))) : undefined, query.to ? lt(payments.createdAt, edge(dayOfDate(query.to) + 1)) : undefined];
}

/**
 * GET /me/payments: a page of the host's payments, newest first, with their booking and refunds,
 * and the totals per currency of the range (paid, given back, what stays), whatever the page and
 * the status filter: the dashboard's figures for "this month" do not change with the page shown.
 */
export async function listPayments(db: Db, host: UserRow, query: Query): Promise<Answer> {
  const scope = and(visibleTo(host), ...inRange(host, query));
  const where = and(scope, query.status ? eq(payments.status, query.status) : undefined);
  const offset = (query.page - 1) * query.limit;

  const rows = db
    .select({
      payment: payments,
      eventType: { id: eventTypes.id, title: eventTypes.title },
      booking: { id: bookings.id, guestName: bookings.guestName, guestEmail: bookings.guestEmail, startTime: bookings.startTime, status: bookings.status },
    })
    .from(payments)
    .innerJoin(eventTypes, eq(eventTypes.id, payments.eventTypeId))
    .innerJoin(bookings, eq(bookings.id, payments.bookingId))
    .where(where)
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(query.limit)
    .offset(offset);
  const total = db.select({ n: count() }).from(payments).where(where);
  // Paid: the payments paid in the range. Refunded: what Stripe confirmed given back of them.
  const paid = db
    .select({ currency: payments.currency, paid: sql<number>`coalesce(sum(${payments.amount}), 0)`.mapWith(Number), count: count() })
    .from(payments)
    .where(and(scope, eq(payments.status, "paid")))
    .groupBy(payments.currency);
  const refunded = db
    .select({ currency: payments.currency, refunded: sql<number>`coalesce(sum(${paymentRefunds.amount}), 0)`.mapWith(Number) })
    .from(paymentRefunds)
    .innerJoin(payments, eq(payments.id, paymentRefunds.paymentId))
    .where(and(scope, eq(paymentRefunds.status, "succeeded")))
    .groupBy(payments.currency);
  const [page, [counted], paidRows, refundedRows, currencyDefault] = await Promise.all([rows, total, paid, refunded, lastCurrency(db, host)]);

  const refunds = page.length
    ? await db
        .select()
        .from(paymentRefunds)
        .where(inArray(paymentRefunds.paymentId, page.map((r) => r.payment.id)))
        .orderBy(asc(paymentRefunds.createdAt), asc(paymentRefunds.id))
    : [];

  const totals = new Map<string, { currency: string; paid: number; refunded: number; net: number; count: number }>();
  const totalOf = (currency: string) => totals.get(currency) ?? totals.set(currency, { currency, paid: 0, refunded: 0, net: 0, count: 0 }).get(currency)!;
  for (const r of paidRows) Object.assign(totalOf(r.currency), { paid: r.paid, count: r.count });
  for (const r of refundedRows) totalOf(r.currency).refunded = r.refunded;
  for (const t of totals.values()) t.net = t.paid - t.refunded;

  return {
    configured: getConfig().payments !== undefined,
    currencyDefault,
    totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
    data: page.map(({ payment: p, eventType, booking }) => ({
      id: p.id,
      status: p.status,
      amount: p.amount,
      currency: p.currency,
      quantity: p.quantity,
      createdAt: isoUtc(p.createdAt),
      paidAt: p.paidAt ? isoUtc(p.paidAt) : null,
      holdExpiresAt: isoUtc(p.holdExpiresAt),
      eventType,
      booking: { ...booking, startTime: isoUtc(booking.startTime) },
      refunds: refunds
        .filter((r) => r.paymentId === p.id)
        .map((r) => ({ id: r.id, amount: r.amount, reason: r.reason, status: r.status, createdAt: isoUtc(r.createdAt), refundedAt: r.refundedAt ? isoUtc(r.refundedAt) : null })),
    })),
    pagination: { page: query.page, limit: query.limit, total: counted?.n ?? 0 },
  };
}

/** The currency the host last priced an event type in: a new price starts in it. */
async function lastCurrency(db: Db, host: UserRow): Promise<string | null> {
  const [row] = await db
    .select({ currency: sql<string>`${eventTypes.price}->>'currency'` })
    .from(eventTypes)
    .where(and(eq(eventTypes.userId, host.id), sql`${eventTypes.price} is not null`))
    .orderBy(desc(eventTypes.updatedAt))
    .limit(1);
  return row?.currency ?? null;
}
