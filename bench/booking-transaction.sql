-- One booking as raw SQL, for pgbench (bench/bookings.ts runs it with -M prepared): the statements
-- POST /api/v1/public/{username}/{slug}/bookings sends to PostgreSQL, in the same order, with the
-- guest-email limit off as in the bench (RATE_LIMITS=off). What the service computes between them
-- (the slot engine's re-check, the answer, the sealed token, the event's JSON) is not done here:
-- this is what the database allows for the same statements. Keep it in step with
-- lib/services/{public-event-types,host-writes,idempotency,slot-input,booking-commit}.ts.
--
-- Set by bench/bookings.ts with -D: prefix (usernames are <prefix>-h0 … -h<hosts-1>), hosts,
-- clients, base (epoch seconds of slot 0; slots are 30 minutes), n=0 (a per-client counter:
-- pgbench keeps variables from one transaction to the next), so slot number
-- (n - 1) * clients + client_id is taken once, and host = slot mod hosts, as the API bench does.
\set n :n + 1
\set slot (:n - 1) * :clients + :client_id
\set h :slot % :hosts
\set start :base + :slot * 1800
\set key :start

-- The host and the active event type behind /{username}/{slug}, and what the Idempotency-Key holds
select u.id as host_id, e.id as event_type_id, k.response_status
  from event_types e join users u on u.id = e.user_id
  left join idempotency_keys k on k.scope = 'public-booking' and k.key = 'pgbench-' || :key::bigint
  where u.username = :prefix::text || '-h' || :h::int and e.slug = 'call' and e.is_active
  limit 1 \gset
begin;
-- Sent together by the service (one round trip): the host's lock; the NOTIFY that tells other
-- instances to drop the host's cached slots (delivered at the commit); the Idempotency-Key's claim;
-- the host's schedule around the slot (hours, overrides, bookings, busy time) for the re-check.
select pg_advisory_xact_lock(hashtextextended('host-bookings:' || :host_id::text, 0));
select pg_notify('booking_schedule_changed', 'pgbench:' || :host_id::text);
insert into idempotency_keys as k (scope, key, request_hash, response_status, response_body, created_at, expires_at)
  values ('public-booking', 'pgbench-' || :key::bigint, md5(:key::text), null, null, now(), now() + interval '1 day')
  on conflict (scope, key) do update
    set request_hash = excluded.request_hash, response_status = null, response_body = null,
        created_at = excluded.created_at, expires_at = excluded.expires_at
    where k.expires_at <= excluded.created_at
  returning 1 as claimed;
select
  (select coalesce(json_agg(json_build_array(day_of_week, start_minute, end_minute)), '[]'::json)
     from availability_rules where user_id = :host_id::text) as rules,
  (select coalesce(json_agg(json_build_array(date::text, intervals)), '[]'::json)
     from availability_overrides
     where user_id = :host_id::text and date >= (to_timestamp(:start) - interval '2 days')::date
       and date <= (to_timestamp(:start) + interval '2 days')::date) as overrides,
  (select coalesce(json_agg(json_build_array(floor(extract(epoch from blocked_start) * 1000), floor(extract(epoch from blocked_end) * 1000))), '[]'::json)
     from bookings
     where host_id = :host_id::text and status <> 'cancelled' and blocked_end > to_timestamp(:start) - interval '2 days'
       and blocked_start < to_timestamp(:start) + interval '2 days') as blocked,
  (select coalesce(json_agg(json_build_array(floor(extract(epoch from b.start_time) * 1000), floor(extract(epoch from b.end_time) * 1000))), '[]'::json)
     from busy_intervals b join calendars c on c.id = b.calendar_id
     where b.user_id = :host_id::text and c.check_conflicts and b.end_time > to_timestamp(:start) - interval '2 days'
       and b.start_time < to_timestamp(:start) + interval '2 days') as busy;
-- One statement: the booking under the exclusion constraint, the guest's sealed token beside it,
-- its booking.created event in the outbox (announced at the commit), and the answer stored under
-- the Idempotency-Key
with booking as (
  insert into bookings (id, host_id, event_type_id, status, start_time, end_time, buffer_before_minutes, buffer_after_minutes,
      blocked_start, blocked_end, guest_name, guest_email, guest_timezone, location, custom_answers, cancel_token_hash,
      sequence, created_at, updated_at)
  values ('bkg_pgbench_' || :key::bigint, :host_id::text, :event_type_id::text, 'confirmed', to_timestamp(:start), to_timestamp(:start + 1800), 0, 0,
      to_timestamp(:start), to_timestamp(:start + 1800), 'Guest ' || :key::bigint, 'guest-' || :key::bigint || '@example.com', 'Europe/Berlin', '', '{}',
      md5('token-' || :key::bigint) || md5('hash-' || :key::bigint), 0, now(), now())
  returning id
), job as (
  insert into outbox_jobs (kind, payload, run_after)
  select 'booking.created', jsonb_build_object(
      'event', 'booking.created', 'hostId', :host_id::text, 'bookingId', 'bkg_pgbench_' || :key::bigint,
      'occurredAt', now(), 'sequence', 0,
      'data', jsonb_build_object('id', 'bkg_pgbench_' || :key::bigint, 'eventType', jsonb_build_object('id', :event_type_id::text, 'title', 'Call'),
        'guestName', 'Guest ' || :key::bigint, 'guestEmail', 'guest-' || :key::bigint || '@example.com',
        'startTime', to_timestamp(:start), 'endTime', to_timestamp(:start + 1800), 'guestTimezone', 'Europe/Berlin',
        'status', 'confirmed', 'location', '', 'customAnswers', '{}'::jsonb, 'createdAt', now(),
        'cancellationReason', null, 'cancelledBy', null, 'previousStartTime', null)), now()
  from booking
  returning id
), token as (
  insert into booking_guest_tokens (booking_id, sealed_token, created_at)
  select id, repeat('x', 110), now() from booking
  returning 1
), answer as (
  update idempotency_keys set response_status = 201, response_body = jsonb_build_object(
      'id', 'bkg_pgbench_' || :key::bigint, 'status', 'confirmed', 'startTime', to_timestamp(:start), 'endTime', to_timestamp(:start + 1800),
      'guestName', 'Guest ' || :key::bigint, 'guestEmail', 'guest-' || :key::bigint || '@example.com',
      'confirmationMessage', 'Call with Bench Host is confirmed for Monday, March 15, 2027, 9:00 – 9:30 AM (Europe/Berlin).',
      'sealedCancelToken', repeat('x', 110))
  where scope = 'public-booking' and key = 'pgbench-' || :key::bigint and exists (select from booking)
  returning 1
)
select (select count(*) from job)::int as jobs, (select count(*) from token)::int as tokens, (select count(*) from answer)::int as answers,
  pg_notify('booking_jobs', '')::text as notified
from booking;
commit;
