-- One booking as raw SQL, for pgbench (bench/bookings.ts runs it with -M prepared): the statements
-- POST /api/v1/public/{username}/{slug}/bookings sends to PostgreSQL, in the same order and the
-- same round trips, with the guest-email limit off as in the bench (RATE_LIMITS=off). What the
-- service computes between them (the slot engine's re-check, the answer, the sealed token) is
-- not done here: this is what the database allows for the same statements.
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

-- Idempotency-Key: a finished request's answer (none here)
select response_status from idempotency_keys where scope = 'public-booking' and key = 'pgbench-' || :key::bigint limit 1;
-- The host and the active event type behind /{username}/{slug}
select u.id as host_id, e.id as event_type_id
  from event_types e join users u on u.id = e.user_id
  where u.username = :prefix::text || '-h' || :h::int and e.slug = 'call' and e.is_active
  limit 1 \gset
begin;
-- The host's booking writes take turns
select pg_advisory_xact_lock(hashtextextended('host-bookings:' || :host_id::text, 0));
-- The Idempotency-Key is claimed inside the transaction (an expired claim goes first)
delete from idempotency_keys where scope = 'public-booking' and key = 'pgbench-' || :key::bigint and expires_at < now();
insert into idempotency_keys (scope, key, request_hash, created_at, expires_at)
  values ('public-booking', 'pgbench-' || :key::bigint, md5(:key::text), now(), now() + interval '1 day')
  on conflict do nothing returning key;
-- The slot re-check reads the host's schedule around the slot: hours, overrides, bookings, busy
-- time (the service sends these four at once, so they are one pipeline here)
\startpipeline
select day_of_week, start_minute, end_minute from availability_rules where user_id = :host_id::text;
select date, intervals from availability_overrides
  where user_id = :host_id::text and date >= (to_timestamp(:start) - interval '2 days')::date and date <= (to_timestamp(:start) + interval '2 days')::date;
select blocked_start, blocked_end from bookings
  where host_id = :host_id::text and status <> 'cancelled'
    and blocked_end > to_timestamp(:start) - interval '2 days' and blocked_start < to_timestamp(:start) + interval '2 days';
select b.start_time, b.end_time from busy_intervals b join calendars c on c.id = b.calendar_id
  where b.user_id = :host_id::text and c.check_conflicts
    and b.end_time > to_timestamp(:start) - interval '2 days' and b.start_time < to_timestamp(:start) + interval '2 days';
\endpipeline
-- The booking, under the exclusion constraint
insert into bookings (id, host_id, event_type_id, status, start_time, end_time, buffer_before_minutes, buffer_after_minutes,
    blocked_start, blocked_end, guest_name, guest_email, guest_timezone, location, custom_answers, cancel_token_hash, created_at, updated_at)
  values ('bkg_pgbench_' || :key::bigint, :host_id::text, :event_type_id::text, 'confirmed', to_timestamp(:start), to_timestamp(:start + 1800), 0, 0,
    to_timestamp(:start), to_timestamp(:start + 1800), 'Guest ' || :key::bigint, 'guest-' || :key::bigint || '@example.com', 'Europe/Berlin', '', '{}',
    md5('token-' || :key::bigint) || md5('hash-' || :key::bigint), now(), now())
  returning *;
-- Its booking.created event in the outbox, announced at commit
insert into outbox_jobs (kind, payload, run_after, dedupe_key)
  values ('booking.created', jsonb_build_object(
      'event', 'booking.created', 'hostId', :host_id::text, 'bookingId', 'bkg_pgbench_' || :key::bigint,
      'occurredAt', now(), 'sequence', 0, 'sealedGuestToken', repeat('x', 110),
      'data', jsonb_build_object('id', 'bkg_pgbench_' || :key::bigint, 'eventType', jsonb_build_object('id', :event_type_id::text, 'title', 'Call'),
        'guestName', 'Guest ' || :key::bigint, 'guestEmail', 'guest-' || :key::bigint || '@example.com',
        'startTime', to_timestamp(:start), 'endTime', to_timestamp(:start + 1800), 'guestTimezone', 'Europe/Berlin',
        'status', 'confirmed', 'location', '', 'customAnswers', '{}'::jsonb, 'createdAt', now(),
        'cancellationReason', null, 'cancelledBy', null, 'previousStartTime', null)),
    now(), null)
  on conflict (dedupe_key) do nothing;
select pg_notify('booking_jobs', '');
-- The answer, stored under the Idempotency-Key
update idempotency_keys set response_status = 201, response_body = jsonb_build_object(
    'id', 'bkg_pgbench_' || :key::bigint, 'status', 'confirmed', 'startTime', to_timestamp(:start), 'endTime', to_timestamp(:start + 1800),
    'guestName', 'Guest ' || :key::bigint, 'guestEmail', 'guest-' || :key::bigint || '@example.com',
    'confirmationMessage', 'Call with Bench Host is confirmed for Monday, March 15, 2027, 9:00 – 9:30 AM (Europe/Berlin).',
    'sealedCancelToken', repeat('x', 110))
  where scope = 'public-booking' and key = 'pgbench-' || :key::bigint;
commit;
