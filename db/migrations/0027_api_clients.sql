CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"scopes" text[] NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "event_type_ids" text[];--> statement-breakpoint
ALTER TABLE "booking_hosts" ADD COLUMN "changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "booking_hosts" bh SET "changed_at" = b."updated_at" FROM "bookings" b WHERE b."id" = bh."booking_id";--> statement-breakpoint
-- A booking's updated_at is the database's clock when the change was written, whatever the writer
-- sends: every writer changes a booking under its hosts' booking locks, held to the commit, so for
-- each host the changes' times rise in the order they commit, and a client walking a host's
-- changes by (updated_at, id) (lib/services/bookings/changes.ts) never passes one that commits
-- later. clock_timestamp(), not now(): now() is when the transaction began, before the locks.
CREATE FUNCTION "bookings_stamp"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."updated_at" := clock_timestamp();
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "bookings_stamp" BEFORE INSERT OR UPDATE ON "bookings" FOR EACH ROW EXECUTE FUNCTION "bookings_stamp"();--> statement-breakpoint
-- The change's time follows the booking onto every host's row, as its times and status do.
CREATE OR REPLACE FUNCTION "booking_hosts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "booking_hosts" ("booking_id", "user_id", "blocked_start", "blocked_end", "cancelled", "start_time", "status", "changed_at")
    VALUES (NEW."id", NEW."host_id", NEW."blocked_start", NEW."blocked_end", NEW."status" = 'cancelled', NEW."start_time", NEW."status", NEW."updated_at")
    ON CONFLICT ("booking_id", "user_id") DO NOTHING;
    RETURN NULL;
  END IF;
  IF NEW."host_id" <> OLD."host_id" THEN
    UPDATE "booking_hosts" SET "user_id" = NEW."host_id" WHERE "booking_id" = NEW."id" AND "user_id" = OLD."host_id";
  END IF;
  UPDATE "booking_hosts"
  SET "blocked_start" = NEW."blocked_start", "blocked_end" = NEW."blocked_end", "cancelled" = NEW."status" = 'cancelled',
      "start_time" = NEW."start_time", "status" = NEW."status", "changed_at" = NEW."updated_at"
  WHERE "booking_id" = NEW."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER "bookings_hosts_on_update" ON "bookings";--> statement-breakpoint
CREATE TRIGGER "bookings_hosts_on_update" AFTER UPDATE ON "bookings"
  FOR EACH ROW EXECUTE FUNCTION "booking_hosts_follow"();--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_user_id_idx" ON "api_keys" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "booking_hosts_user_changed_idx" ON "booking_hosts" USING btree ("user_id","changed_at","booking_id");