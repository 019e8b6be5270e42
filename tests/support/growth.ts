import type postgres from "postgres";

// A database that has grown: many hosts, years of bookings, calendar busy time, webhook
// deliveries and finished outbox rows, written by PostgreSQL itself (INSERT … SELECT
// generate_series, a statement per table), so a million bookings take seconds, not an hour of
// round trips. Used by the plan test (tests/integration/query-plans.test.ts) and by the growth
// section of the bench (bench/growth.ts), at different sizes.
//
// The crowd's hosts are `grow_<n>`: hours Monday to Friday 09:00–17:00 UTC, a 30-minute event
// type, one calendar that checks conflicts. Their bookings lie 3 hours apart, the first 90 % of
// each host's in the past; every 20th is cancelled. `focus`, a host made by the caller (over the
// API, as a real one), gets a long past of its own: what a deep page of its bookings list reads.

export type GrowthSize = {
  hosts: number;
  /** Bookings of the crowd, spread evenly over its hosts. */
  bookings: number;
  /** Calendar busy intervals of the crowd, spread evenly, mostly past. */
  busyIntervals: number;
  /** Finished outbox rows (done, last month), beside which the worker claims due ones. */
  outboxJobs: number;
  focus?: {
    userId: string;
    eventTypeId: string;
    /** Past bookings of the focus host, 2 hours apart, the newest a day ago. */
    pastBookings: number;
    /** Delivered webhook attempts of one endpoint of the focus host. */
    webhookDeliveries?: number;
    /** Past busy intervals of a calendar of the focus host (checks conflicts, busy data fresh). */
    busyIntervals?: number;
    /**
     * Past seated starts of a seated event type of the focus host (`class`, 6 seats), 2 to 5
     * guests each, among its past bookings (every 20 hours, on the hour between two of them).
     */
    seatedStarts?: number;
    /**
     * Past weekly series of 8 occurrences of a recurring event type of the focus host (`weekly`),
     * among its past bookings (half past the hour between two of them).
     */
    series?: number;
  };
};

/**
 * Writes `size` into the migrated database `sql` names, then VACUUMs and ANALYZEs it, as
 * autovacuum would soon after such a load on a real database (the scratch server here may run
 * with autovacuum off): a grown database's tables have their visibility maps, so an index-only
 * scan (the bookings list's total) reads the index alone, not every row it counts.
 */
export async function seedGrowth(sql: postgres.Sql, size: GrowthSize, log: (line: string) => void = () => {}): Promise<void> {
  let mark = performance.now();
  const lap = (what: string) => {
    const now = performance.now();
    log(`  seeded ${what} in ${((now - mark) / 1000).toFixed(1)} s`);
    mark = now;
  };
  const perHost = Math.max(1, Math.ceil(size.bookings / size.hosts));
  const past = Math.floor(perHost * 0.9);
  await sql.begin(async (tx) => {
    lap("nothing");
    // The rows are written as a whole: the triggers that keep booking_hosts in step with bookings
    // (migration 0013) would write them one by one, so they are off (session_replication_role
    // also skips the foreign-key checks: the rows below are made consistent) and booking_hosts is
    // filled from bookings in one statement, as migration 0013 did for the rows it found.
    await tx`set local session_replication_role = replica`;
    await tx`
      insert into users (id, email, password_hash, full_name, username, timezone)
      select 'grow_' || n, 'grow-' || n || '@example.com', 'x', 'Grown Host ' || n, 'grow-' || n, 'UTC'
      from generate_series(1, ${size.hosts}::int) n`;
    await tx`
      insert into schedules (id, user_id, name, is_default)
      select 'grow_sch_' || n, 'grow_' || n, 'Working hours', true from generate_series(1, ${size.hosts}::int) n`;
    await tx`
      insert into availability_rules (user_id, schedule_id, day_of_week, start_minute, end_minute)
      select 'grow_' || n, 'grow_sch_' || n, d, 540, 1020 from generate_series(1, ${size.hosts}::int) n, generate_series(1, 5) d`;
    await tx`
      insert into event_types (id, user_id, slug, title, duration_minutes)
      select 'grow_evt_' || n, 'grow_' || n, 'call', 'Call', 30 from generate_series(1, ${size.hosts}::int) n`;
    await tx`
      insert into calendar_connections (id, user_id, provider, email, credentials_encrypted, sync_due_at, busy_as_of, last_synced_at)
      select 'grow_cc_' || n, 'grow_' || n, 'provider_a', 'grow-' || n || '@example.com', 'x', now() + interval '1 hour', now(), now()
      from generate_series(1, ${size.hosts}::int) n`;
    await tx`
      insert into calendars (id, connection_id, user_id, external_id, name, is_primary)
      select 'grow_cal_' || n, 'grow_cc_' || n, 'grow_' || n, 'primary', 'Calendar', true from generate_series(1, ${size.hosts}::int) n`;
    // Booking i: host i mod hosts, its k-th (k = i / hosts), 3 hours after the one before.
    await tx`
      insert into bookings (id, host_id, event_type_id, status, start_time, end_time, blocked_start, blocked_end,
        guest_name, guest_email, guest_timezone, cancel_token_hash, created_at)
      select 'grow_bkg_' || i, 'grow_' || h, 'grow_evt_' || h, case when i % 20 = 0 then 'cancelled' else 'confirmed' end,
        t, t + interval '30 minutes', t, t + interval '30 minutes', 'Guest ' || i, 'guest-' || i || '@example.com', 'UTC',
        'grow_tok_' || i, t - interval '7 days'
      from generate_series(0, ${size.bookings - 1}::int) i,
        lateral (select i % ${size.hosts}::int + 1 as h, i / ${size.hosts}::int as k) hk,
        lateral (select date_trunc('hour', now()) + (k - ${past}::int) * interval '3 hours' as t) s`;
    lap(`${size.bookings} bookings`);
    await tx`
      insert into busy_intervals (calendar_id, user_id, start_time, end_time, event_key)
      select 'grow_cal_' || h, 'grow_' || h, t, t + interval '1 hour', 'ev' || i
      from generate_series(0, ${size.busyIntervals - 1}::int) i,
        lateral (select i % ${size.hosts}::int + 1 as h, i / ${size.hosts}::int as k) hk,
        lateral (select date_trunc('hour', now()) + interval '1 hour' + (k - ${Math.floor((size.busyIntervals / size.hosts) * 0.9)}::int) * interval '5 hours' as t) s`;
    await tx`
      insert into outbox_jobs (kind, payload, status, attempts, run_after, created_at, finished_at)
      select 'booking.created', jsonb_build_object('bookingId', 'grow_bkg_' || i), 'done', 1, t, t, t + interval '1 second'
      from generate_series(1, ${size.outboxJobs}::int) i, lateral (select now() - interval '30 days' + i * interval '1 second' as t) s`;
    lap(`${size.busyIntervals} busy intervals, ${size.outboxJobs} finished outbox rows`);

    const focus = size.focus;
    if (focus) {
      await tx`
        insert into bookings (id, host_id, event_type_id, status, start_time, end_time, blocked_start, blocked_end,
          guest_name, guest_email, guest_timezone, cancel_token_hash, created_at)
        select 'grow_fbkg_' || k, ${focus.userId}, ${focus.eventTypeId}, case when k % 20 = 0 then 'cancelled' else 'confirmed' end,
          t, t + interval '30 minutes', t, t + interval '30 minutes', 'Guest ' || k, 'past-guest-' || k || '@example.com', 'UTC',
          'grow_ftok_' || k, t - interval '7 days'
        from generate_series(1, ${focus.pastBookings}::int) k, lateral (select date_trunc('hour', now()) - interval '1 day' - k * interval '2 hours' as t) s`;
      lap(`${focus.pastBookings} bookings of the measured host`);
      if (focus.seatedStarts) {
        // Start j: 1 + j × 20 hours before the newest past booking, 2 + j mod 4 seats, each its own booking.
        await tx`
          insert into event_types (id, user_id, slug, title, duration_minutes, seats)
          values ('grow_evt_fseat', ${focus.userId}, 'class', 'Class', 30, '{"max": 6, "showRemaining": true}'::jsonb)`;
        await tx`
          insert into bookings (id, host_id, event_type_id, status, start_time, end_time, blocked_start, blocked_end,
            guest_name, guest_email, guest_timezone, cancel_token_hash, created_at, seat_key)
          select 'grow_fseat_' || j || '_' || g, ${focus.userId}, 'grow_evt_fseat', 'confirmed',
            t, t + interval '30 minutes', t, t + interval '30 minutes', 'Seat ' || g, 'seat-' || j || '-' || g || '@example.com', 'UTC',
            'grow_fstok_' || j || '_' || g, t - interval '7 days',
            'grow_evt_fseat@' || to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          from generate_series(1, ${focus.seatedStarts}::int) j,
            lateral (select date_trunc('hour', now()) - interval '1 day' + interval '1 hour' - j * interval '20 hours' as t) s,
            lateral generate_series(1, 2 + j % 4) g`;
        // The trigger that counts seats (migration 0028) is off: counted here, as it would.
        await tx`
          insert into seat_counts (seat_key, taken)
          select seat_key, count(*)::int from bookings where event_type_id = 'grow_evt_fseat' and status <> 'cancelled' group by seat_key`;
        lap(`${focus.seatedStarts} seated starts of the measured host`);
      }
      if (focus.series) {
        // Series s lies in lane s mod 84 of group s / 84 (84 lanes of 2 hours make the week), so
        // no two occurrences meet: occurrence w is 1.5 hours after past slot k = lane + 672 × group + 84 w.
        await tx`
          insert into event_types (id, user_id, slug, title, duration_minutes, recurrence)
          values ('grow_evt_fser', ${focus.userId}, 'weekly', 'Weekly', 30, '{"everyWeeks": 1, "maxOccurrences": 8}'::jsonb)`;
        await tx`
          insert into bookings (id, host_id, event_type_id, status, start_time, end_time, blocked_start, blocked_end,
            guest_name, guest_email, guest_timezone, cancel_token_hash, created_at, series_id)
          select 'grow_fser_' || s || '_' || w, ${focus.userId}, 'grow_evt_fser', 'confirmed',
            t, t + interval '30 minutes', t, t + interval '30 minutes', 'Series ' || s, 'series-' || s || '@example.com', 'UTC',
            'grow_fsertok_' || s || '_' || w, t - interval '7 days', 'ser_grow_' || s
          from generate_series(0, ${focus.series - 1}::int) s, generate_series(0, 7) w,
            lateral (select date_trunc('hour', now()) - interval '1 day' + interval '90 minutes'
              - (s % 84 + 672 * (s / 84) + 84 * (7 - w)) * interval '2 hours' as t) x`;
        lap(`${focus.series} series of 8 of the measured host`);
      }
      if (focus.webhookDeliveries) {
        await tx`
          insert into webhooks (id, user_id, url, events, secret_encrypted, is_active)
          values ('grow_whk_focus', ${focus.userId}, 'https://hooks.example.com/grown', '{booking.created}', 'x', false)`;
        await tx`
          insert into webhook_deliveries (id, webhook_id, event_id, event_type, payload, attempt, status, response_status, duration_ms, created_at)
          select 'grow_dlv_' || i, 'grow_whk_focus', 'grow_evt_' || i, 'booking.created', '{}'::jsonb, 1, 'delivered', 200, 40,
            now() - i * interval '1 hour'
          from generate_series(1, ${focus.webhookDeliveries}::int) i`;
      }
      if (focus.busyIntervals) {
        await tx`
          insert into calendar_connections (id, user_id, provider, email, credentials_encrypted, sync_due_at, busy_as_of, last_synced_at)
          values ('grow_cc_focus', ${focus.userId}, 'provider_a', 'focus@example.com', 'x', now() + interval '1 hour', now(), now())`;
        await tx`
          insert into calendars (id, connection_id, user_id, external_id, name, is_primary)
          values ('grow_cal_focus', 'grow_cc_focus', ${focus.userId}, 'primary', 'Calendar', true)`;
        await tx`
          insert into busy_intervals (calendar_id, user_id, start_time, end_time, event_key)
          select 'grow_cal_focus', ${focus.userId}, t, t + interval '1 hour', 'fev' || k
          from generate_series(1, ${focus.busyIntervals}::int) k, lateral (select date_trunc('hour', now()) - interval '1 day' - k * interval '3 hours' as t) s`;
      }
    }
    await tx`
      insert into booking_hosts (booking_id, user_id, blocked_start, blocked_end, cancelled, start_time, status, seat_key)
      select id, host_id, blocked_start, blocked_end, status = 'cancelled', start_time, status, seat_key from bookings where id like 'grow\\_%'`;
    // The triggers that count booking_hosts (migration 0020) are off too: the rows are counted here,
    // added to what the focus host (made over the API) already has.
    await tx`
      insert into host_booking_counts as c (user_id, status, n)
      select user_id, status, count(*)::int from booking_hosts where booking_id like 'grow\\_%' group by user_id, status
      on conflict (user_id, status) do update set n = c.n + excluded.n`;
    lap("their booking_hosts and counters");
  });
  await sql`vacuum analyze`;
  lap("VACUUM ANALYZE");
}
