-- A host's bookings list is read from booking_hosts in the order of the bookings' starts: the
-- start is kept beside each host's row (as the blocked range and the status are, by the same
-- triggers), so a page of a long history is found in an index, not by sorting every booking.
ALTER TABLE "booking_hosts" ADD COLUMN "start_time" timestamp with time zone;--> statement-breakpoint
UPDATE "booking_hosts" bh SET "start_time" = b."start_time" FROM "bookings" b WHERE b."id" = bh."booking_id";--> statement-breakpoint
ALTER TABLE "booking_hosts" ALTER COLUMN "start_time" SET NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "booking_hosts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "booking_hosts" ("booking_id", "user_id", "blocked_start", "blocked_end", "cancelled", "start_time")
    VALUES (NEW."id", NEW."host_id", NEW."blocked_start", NEW."blocked_end", NEW."status" = 'cancelled', NEW."start_time");
    RETURN NULL;
  END IF;
  IF NEW."host_id" <> OLD."host_id" THEN
    UPDATE "booking_hosts" SET "user_id" = NEW."host_id" WHERE "booking_id" = NEW."id" AND "user_id" = OLD."host_id";
  END IF;
  IF NEW."host_id" <> OLD."host_id" OR NEW."blocked_start" <> OLD."blocked_start" OR NEW."blocked_end" <> OLD."blocked_end"
     OR NEW."status" <> OLD."status" OR NEW."start_time" <> OLD."start_time" THEN
    UPDATE "booking_hosts"
    SET "blocked_start" = NEW."blocked_start", "blocked_end" = NEW."blocked_end", "cancelled" = NEW."status" = 'cancelled',
        "start_time" = NEW."start_time"
    WHERE "booking_id" = NEW."id";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER "bookings_hosts_on_update" ON "bookings";--> statement-breakpoint
CREATE TRIGGER "bookings_hosts_on_update" AFTER UPDATE OF "host_id", "blocked_start", "blocked_end", "status", "start_time" ON "bookings"
  FOR EACH ROW EXECUTE FUNCTION "booking_hosts_follow"();--> statement-breakpoint
CREATE INDEX "booking_hosts_user_start_idx" ON "booking_hosts" USING btree ("user_id","start_time","booking_id");
