-- No double booking, whatever the race: the blocked ranges [start - buffer before,
-- end + buffer after) of a host's pending and confirmed bookings must never overlap.
-- Half-open ranges, so back-to-back bookings are allowed. Violations raise SQLSTATE 23P01.
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_no_overlap"
  EXCLUDE USING gist ("host_id" WITH =, tstzrange("blocked_start", "blocked_end", '[)') WITH &&)
  WHERE ("status" <> 'cancelled');
