import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { outboxJobs, webhooks } from "@/db/schema";
import { bookingEvents } from "@/lib/schemas/webhook";
import { WEBHOOK_DELIVERY } from "./kinds";

// Erasing a guest (decisions §16) reaches into what was recorded about their bookings besides
// the booking rows: job payloads (a booking event, an email's event, a webhook body), delivery
// logs, stored answers. Only records OF THE ERASED BOOKINGS are touched, found by booking id, and
// in them only the guest's fields of the booking (name, address, answers, a reason the guest
// gave): another host's records never change, whatever strings they hold (audit, 2026-11-28).

export const ERASED_NAME = "Erased guest";

/**
 * A booking as a record holds it (the API's Booking, a created booking's answer, a booking
 * event's data) with the guest's fields erased, when it is one of `bookingIds`; anything else,
 * the same value. Returns the same value when nothing changed.
 */
export function scrubBooking(value: unknown, bookingIds: ReadonlySet<string>): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const b = value as Record<string, unknown>;
  const id = typeof b.id === "string" ? b.id : b.bookingId;
  if (typeof id !== "string" || !bookingIds.has(id)) return value;
  const out: Record<string, unknown> = { ...b };
  if (typeof b.guestName === "string") out.guestName = ERASED_NAME;
  if (typeof b.guestEmail === "string") out.guestEmail = "";
  if (b.customAnswers !== undefined && b.customAnswers !== null) out.customAnswers = {};
  if (Array.isArray(b.answers)) out.answers = [];
  if (b.cancelledBy === "guest" && typeof b.cancellationReason === "string") out.cancellationReason = null;
  const changed = Object.keys(out).some((k) => out[k] !== b[k]);
  return changed ? out : value;
}

/** A webhook message ({type, timestamp, data}, parsed) with its booking's guest erased. */
function scrubMessage(message: unknown, bookingIds: ReadonlySet<string>): unknown {
  if (message === null || typeof message !== "object") return message;
  const m = message as { data?: unknown };
  const data = scrubBooking(m.data, bookingIds);
  return data === m.data ? message : { ...m, data };
}

/** A job's payload with the guest of the erased bookings taken out, at the places each kind keeps a booking. */
export function scrubPayload(kind: string, payload: unknown, bookingIds: ReadonlySet<string>): unknown {
  if (payload === null || typeof payload !== "object") return payload;
  const p = payload as Record<string, unknown>;
  if (kind === WEBHOOK_DELIVERY && typeof p.body === "string") {
    // The body is sent byte for byte as stored: rewritten only when its booking is erased.
    let parsed: unknown;
    try {
      parsed = JSON.parse(p.body);
    } catch {
      return payload;
    }
    const scrubbed = scrubMessage(parsed, bookingIds);
    return scrubbed === parsed ? payload : { ...p, body: JSON.stringify(scrubbed) };
  }
  // A booking email carries the event it tells of; a booking event carries its data.
  if (p.event !== null && typeof p.event === "object") {
    const event = scrubPayload("", p.event, bookingIds);
    return event === p.event ? payload : { ...p, event };
  }
  if (typeof p.bookingId === "string" && bookingIds.has(p.bookingId) && "data" in p) {
    const data = scrubBooking(p.data, bookingIds);
    return data === p.data ? payload : { ...p, data };
  }
  return payload;
}

/** The stored webhook message of a delivery log row, with the erased bookings' guest taken out. */
export const scrubDelivered = scrubMessage;

/** The columns an erasure reads of an outbox row. */
const jobColumns = { id: outboxJobs.id, kind: outboxJobs.kind, status: outboxJobs.status, payload: outboxJobs.payload };
type JobRow = { id: number; kind: string; status: string; payload: unknown };

/**
 * The dedupe keys of the messages a booking event's fan-out made (lib/services/bookings/effects.ts):
 * its emails (the guest's, each host's) and its webhook deliveries (one per endpoint of the hosts).
 */
function fanOutKeys(jobId: number, event: { hostId: string; hostIds?: string[]; formerHostIds?: string[] }, webhookIds: readonly string[]): string[] {
  const hosts = [...new Set([...(event.hostIds ?? [event.hostId]), ...(event.formerHostIds ?? [])])];
  return [
    `email:${jobId}:guest`,
    `email:${jobId}:host`,
    ...hosts.map((h) => `email:${jobId}:host:${h}`),
    ...webhookIds.map((w) => `webhook:${jobId}:${w}`),
  ];
}

/**
 * The outbox rows of the erased bookings, found by booking id, never by searching text: every row
 * whose payload names the booking at its top level (booking events, calendar writes, reminders,
 * and the emails and webhook messages fanned out since they carry it too; pending ones through
 * outbox_jobs_pending_booking_idx), and the emails and webhook messages made before that, by the
 * dedupe keys their event's fan-out gave them (the unique index). Locked for the erasure.
 */
async function outboxRowsOf(tx: Tx | Db, ids: string[]): Promise<JobRow[]> {
  const direct = await tx
    .select(jobColumns)
    .from(outboxJobs)
    .where(inArray(sql<string>`${outboxJobs.payload} ->> 'bookingId'`, ids))
    .for("update");
  const events = direct.filter((r) => (bookingEvents as readonly string[]).includes(r.kind)) as (JobRow & { payload: { hostId: string; hostIds?: string[]; formerHostIds?: string[] } })[];
  if (events.length === 0) return direct;
  const hostIds = [...new Set(events.flatMap((e) => [e.payload.hostId, ...(e.payload.hostIds ?? []), ...(e.payload.formerHostIds ?? [])]))];
  const hooks = (await tx.select({ id: webhooks.id }).from(webhooks).where(inArray(webhooks.userId, hostIds))).map((w) => w.id);
  const keys = events.flatMap((e) => fanOutKeys(e.id, e.payload, hooks));
  const seen = new Set(direct.map((r) => r.id));
  const made = await tx.select(jobColumns).from(outboxJobs).where(inArray(outboxJobs.dedupeKey, keys)).for("update");
  return [...direct, ...made.filter((r) => !seen.has(r.id))];
}

/**
 * The outbox after an erasure: jobs still to send something to the guest of those bookings (their
 * booking emails, reminders, calls) are deleted; every other job of those bookings, to be sent or
 * finished, keeps its place with the guest's fields erased from its payload.
 */
export async function scrubOutbox(tx: Tx | Db, bookingIds: string[], guestBoundKinds: readonly string[]): Promise<{ dropped: number; scrubbed: number }> {
  if (bookingIds.length === 0) return { dropped: 0, scrubbed: 0 };
  const ids = new Set(bookingIds);
  const rows = await outboxRowsOf(tx, bookingIds);
  const bookingOf = (p: unknown): unknown => {
    const payload = p as { bookingId?: unknown; event?: { bookingId?: unknown } };
    return payload.bookingId ?? payload.event?.bookingId;
  };
  const toGuest = (p: unknown) => (p as { reader?: unknown }).reader === "guest";
  const doomed = rows
    .filter((r) => r.status === "pending" && guestBoundKinds.includes(r.kind) && toGuest(r.payload) && ids.has(bookingOf(r.payload) as string))
    .map((r) => r.id);
  if (doomed.length > 0) await tx.delete(outboxJobs).where(and(inArray(outboxJobs.id, doomed), eq(outboxJobs.status, "pending")));
  let scrubbed = 0;
  for (const row of rows) {
    if (doomed.includes(row.id)) continue;
    const payload = scrubPayload(row.kind, row.payload, ids);
    if (payload === row.payload) continue;
    await tx.update(outboxJobs).set({ payload }).where(eq(outboxJobs.id, row.id));
    scrubbed += 1;
  }
  return { dropped: doomed.length, scrubbed };
}
