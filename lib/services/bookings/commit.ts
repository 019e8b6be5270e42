import "server-only";
import type { Tx } from "@/db";
import { runStatements } from "@/db/client";
import type { BookingRow } from "@/db/schema";
import { insertJobsSql, JOBS_CHANNEL, jobsParam } from "@/lib/outbox/enqueue";
import { overlapAsConflict } from "./store";
import type { Claim, StoredResponse } from "@/lib/store/idempotency";
import type { BookingEventPayload } from "@/lib/outbox/booking-events";

// A new booking's writes, in one statement: the booking and its hosts under the exclusion
// constraint (every host's row of booking_hosts written here, with the booking's times and status
// as the insert trigger would copy them: migrations 0013, 0018, 0020; the trigger then finds the
// booking's own host's row there and leaves it; one statement, so booking_hosts' triggers take the
// hosts' counters of host_booking_counts in one order, as every other writer does), the
// guest's token sealed beside it (for the links in later emails), the first entry of its history
// (created, by the guest), its booking.created event in the outbox (the outbox's own insert,
// insertJobsSql; announced to idle workers by a NOTIFY that PostgreSQL sends at the commit),
// and the answer stored under the Idempotency-Key claimed earlier in the same transaction. The
// booking's updated_at is the database's clock (bookings_stamp, migration 0027), not the one sent:
// the hosts' rows, the event's data and the stored answer get it here, from the insert (with
// its milliseconds, as the API shows it: lib/dto.ts), and it is returned for the answer. One
// statement is one round trip, and it is all or nothing: no booking without its event and its
// stored answer, whatever happens after.
const COMMIT_SQL = `
with booking as (
  insert into bookings (id, host_id, event_type_id, status, start_time, end_time, buffer_before_minutes, buffer_after_minutes,
      blocked_start, blocked_end, guest_name, guest_email, guest_timezone, location, custom_answers, cancel_token_hash,
      sequence, created_at, updated_at, guest_language, seat_key, series_id, payment_id, payment_status, price_amount, price_currency)
  values ($1::text, $2::text, $3::text, $4::text, $5::text::timestamptz, $6::text::timestamptz, $7::int, $8::int,
      $9::text::timestamptz, $10::text::timestamptz, $11::text, $12::text, $13::text, $14::text, $15::text::jsonb, $16::text,
      $17::int, $18::text::timestamptz, $19::text::timestamptz, $26::text, $29::text, $30::text, $31::text, $32::text, $33::int, $34::text)
  returning id, updated_at, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as stamp
), hosts as (
  insert into booking_hosts (booking_id, user_id, blocked_start, blocked_end, cancelled, start_time, status, changed_at, seat_key)
  select booking.id, h.id, $9::text::timestamptz, $10::text::timestamptz, false, $5::text::timestamptz, $4::text, booking.updated_at, $29::text
  from booking, json_array_elements_text($28::text::json) as h(id)
  returning 1
), job as (
  ${insertJobsSql(20, "exists (select from booking)", `jsonb_set(j.payload, '{data,updatedAt}', to_jsonb((select stamp from booking)))`)}
  returning 1
), token as (
  insert into booking_guest_tokens (booking_id, sealed_token, created_at)
  select id, $27::text, $18::text::timestamptz from booking
  returning 1
), history as (
  insert into booking_history (booking_id, at, action, actor, details)
  select id, $18::text::timestamptz, 'created', 'guest', '{}'::jsonb from booking
  returning 1
), answer as (
  update idempotency_keys set response_status = $21::int, response_body = jsonb_set($22::text::jsonb, '{updatedAt}', to_jsonb((select stamp from booking)))
  where scope = $23::text and key = $24::text and exists (select from booking)
  returning 1
)
select (select count(*) from job)::int as jobs, (select count(*) from token)::int as tokens, (select count(*) from answer)::int as answers,
  (select count(*) from history)::int as histories,
  pg_notify($25::text, '')::text as notified, booking.stamp
from booking`;

/**
 * Inserts `row` with its event and stores `answer` for `claim`, inside the booking's transaction;
 * returns the booking's updatedAt as stored (the answer's and the event's data's are set to it).
 * An overlapping booking that won a race (23P01) becomes 409 slot_unavailable; an event type
 * deleted meanwhile (23503) 404.
 */
export async function commitNewBooking(
  tx: Tx,
  args: {
    row: BookingRow;
    /** A collective booking's hosts besides row.hostId; none for a personal or round-robin one. */
    coHostIds: string[];
    /** Null for a paid booking's hold: it is told of once paid (decisions §20). */
    event: { kind: string; payload: BookingEventPayload } | null;
    sealedGuestToken: string;
    claim: Claim;
    answer: StoredResponse;
  },
): Promise<{ updatedAt: string }> {
  const { row, event, claim, answer } = args;
  type Written = { jobs: number; tokens: number; answers: number; histories: number; stamp: string };
  let written: Written | undefined;
  try {
    [[written]] = await runStatements(tx)<[Written[]]>([
      {
        text: COMMIT_SQL,
        params: [
          row.id,
          row.hostId,
          row.eventTypeId,
          row.status,
          row.startTime.toISOString(),
          row.endTime.toISOString(),
          row.bufferBeforeMinutes,
          row.bufferAfterMinutes,
          row.blockedStart.toISOString(),
          row.blockedEnd.toISOString(),
          row.guestName,
          row.guestEmail,
          row.guestTimezone,
          row.location,
          JSON.stringify(row.customAnswers),
          row.cancelTokenHash,
          row.sequence,
          row.createdAt.toISOString(),
          row.updatedAt.toISOString(),
          // The event's outbox row, due at once, through the outbox's own insert (lib/outbox/enqueue.ts).
          jobsParam(event ? [{ kind: event.kind, payload: event.payload, runAfter: row.createdAt }] : [], row.createdAt.getTime()),
          answer.status,
          JSON.stringify(answer.body),
          claim.scope,
          claim.key,
          JOBS_CHANNEL,
          row.guestLanguage,
          args.sealedGuestToken,
          JSON.stringify([row.hostId, ...args.coHostIds]),
          row.seatKey,
          row.seriesId,
          row.paymentId,
          row.paymentStatus,
          row.priceAmount,
          row.priceCurrency,
        ],
      },
    ]);
  } catch (error) {
    throw overlapAsConflict(error);
  }
  // The claim is this transaction's own row, so the answer always lands; say so if it did not.
  if (written?.jobs !== (event ? 1 : 0) || written.tokens !== 1 || written.answers !== 1 || written.histories !== 1) {
    throw new Error(`booking ${row.id}: expected ${event ? "one outbox row" : "no outbox row"}, one sealed token, one history entry and one stored answer, wrote ${JSON.stringify(written)}`);
  }
  return { updatedAt: written.stamp };
}
