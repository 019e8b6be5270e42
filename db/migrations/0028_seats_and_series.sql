CREATE TABLE "seat_counts" (
	"seat_key" text PRIMARY KEY NOT NULL,
	"taken" integer NOT NULL,
	CONSTRAINT "seat_counts_taken_chk" CHECK ("seat_counts"."taken" >= 0)
);
--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN "seats" jsonb;--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN "recurrence" jsonb;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "seat_key" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "series_id" text;--> statement-breakpoint
ALTER TABLE "booking_hosts" ADD COLUMN "seat_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_seat_guest_key" ON "bookings" USING btree ("seat_key",lower("guest_email")) WHERE "bookings"."seat_key" is not null and "bookings"."status" <> 'cancelled' and "bookings"."guest_email" <> '';--> statement-breakpoint
CREATE INDEX "bookings_series_idx" ON "bookings" USING btree ("series_id","start_time") WHERE "bookings"."series_id" is not null;--> statement-breakpoint
-- Seats (decisions §19): bookings of one seated start share its time. A booking holds its time
-- alone unless it is a seat: then it may overlap the other seats of its start (the same seat key),
-- and nothing else. Every other guarantee of booking_hosts_no_overlap (migration 0013) stands.
ALTER TABLE "booking_hosts" DROP CONSTRAINT "booking_hosts_no_overlap";--> statement-breakpoint
ALTER TABLE "booking_hosts" ADD CONSTRAINT "booking_hosts_no_overlap"
  EXCLUDE USING gist ("user_id" WITH =, tstzrange("blocked_start", "blocked_end", '[)') WITH &&, (coalesce("seat_key", "booking_id")) WITH <>)
  WHERE (NOT "cancelled");--> statement-breakpoint
-- The seat key follows the booking onto every host's row, as its times and status do.
CREATE OR REPLACE FUNCTION "booking_hosts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "booking_hosts" ("booking_id", "user_id", "blocked_start", "blocked_end", "cancelled", "start_time", "status", "changed_at", "seat_key")
    VALUES (NEW."id", NEW."host_id", NEW."blocked_start", NEW."blocked_end", NEW."status" = 'cancelled', NEW."start_time", NEW."status", NEW."updated_at", NEW."seat_key")
    ON CONFLICT ("booking_id", "user_id") DO NOTHING;
    RETURN NULL;
  END IF;
  IF NEW."host_id" <> OLD."host_id" THEN
    UPDATE "booking_hosts" SET "user_id" = NEW."host_id" WHERE "booking_id" = NEW."id" AND "user_id" = OLD."host_id";
  END IF;
  UPDATE "booking_hosts"
  SET "blocked_start" = NEW."blocked_start", "blocked_end" = NEW."blocked_end", "cancelled" = NEW."status" = 'cancelled',
      "start_time" = NEW."start_time", "status" = NEW."status", "changed_at" = NEW."updated_at", "seat_key" = NEW."seat_key"
  WHERE "booking_id" = NEW."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
-- The seats taken of each seated start, counted in the writing transaction. The upsert locks the
-- start's row, so concurrent seats are counted one after another whatever instance writes them,
-- and one beyond the event type's max fails the statement (SQLSTATE 23P01, as an overlap does).
CREATE FUNCTION "bookings_count_seats"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_key text;
  new_key text;
  seats_taken int;
  seats_max int;
BEGIN
  IF TG_OP <> 'INSERT' AND OLD."status" <> 'cancelled' THEN old_key := OLD."seat_key"; END IF;
  IF TG_OP <> 'DELETE' AND NEW."status" <> 'cancelled' THEN new_key := NEW."seat_key"; END IF;
  IF old_key IS NOT DISTINCT FROM new_key THEN RETURN NULL; END IF;
  IF old_key IS NOT NULL THEN
    UPDATE "seat_counts" SET "taken" = "taken" - 1 WHERE "seat_key" = old_key;
  END IF;
  IF new_key IS NOT NULL THEN
    INSERT INTO "seat_counts" AS c ("seat_key", "taken") VALUES (new_key, 1)
    ON CONFLICT ("seat_key") DO UPDATE SET "taken" = c."taken" + 1
    RETURNING c."taken" INTO seats_taken;
    SELECT ("seats"->>'max')::int INTO seats_max FROM "event_types" WHERE "id" = NEW."event_type_id";
    IF seats_taken > coalesce(seats_max, 1) THEN
      RAISE EXCEPTION 'every seat of % is taken', new_key USING ERRCODE = '23P01', CONSTRAINT = 'seat_counts_capacity';
    END IF;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "bookings_count_seats" AFTER INSERT OR UPDATE OR DELETE ON "bookings"
  FOR EACH ROW EXECUTE FUNCTION "bookings_count_seats"();
