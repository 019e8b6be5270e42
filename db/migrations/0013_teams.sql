CREATE TABLE "team_members" (
	"team_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"status" text NOT NULL,
	"invited_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_at" timestamp with time zone,
	CONSTRAINT "team_members_team_id_user_id_pk" PRIMARY KEY("team_id","user_id"),
	CONSTRAINT "team_members_role_chk" CHECK ("team_members"."role" in ('owner', 'member')),
	CONSTRAINT "team_members_status_chk" CHECK ("team_members"."status" in ('invited', 'active'))
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "booking_hosts" (
	"booking_id" text NOT NULL,
	"user_id" text NOT NULL,
	"blocked_start" timestamp with time zone NOT NULL,
	"blocked_end" timestamp with time zone NOT NULL,
	"cancelled" boolean DEFAULT false NOT NULL,
	CONSTRAINT "booking_hosts_booking_id_user_id_pk" PRIMARY KEY("booking_id","user_id")
);
--> statement-breakpoint
DROP INDEX "bookings_host_blocked_end_idx";--> statement-breakpoint
ALTER TABLE "event_types" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN "team_id" text;--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN "scheduling_type" text;--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN "host_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- A booking's calendar event is now one per host of the booking: the events written so far are its host's.
ALTER TABLE "booking_calendar_events" ADD COLUMN "host_id" text;--> statement-breakpoint
UPDATE "booking_calendar_events" e SET "host_id" = b."host_id" FROM "bookings" b WHERE b."id" = e."booking_id";--> statement-breakpoint
ALTER TABLE "booking_calendar_events" ALTER COLUMN "host_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_calendar_events" DROP CONSTRAINT "booking_calendar_events_pkey";--> statement-breakpoint
ALTER TABLE "booking_calendar_events" ADD CONSTRAINT "booking_calendar_events_booking_id_host_id_pk" PRIMARY KEY("booking_id","host_id");--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_hosts" ADD CONSTRAINT "booking_hosts_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_hosts" ADD CONSTRAINT "booking_hosts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_members_user_idx" ON "team_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_slug_key" ON "teams" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "booking_hosts_user_blocked_end_idx" ON "booking_hosts" USING btree ("user_id","blocked_end") WHERE not "booking_hosts"."cancelled";--> statement-breakpoint
ALTER TABLE "event_types" ADD CONSTRAINT "event_types_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_calendar_events" ADD CONSTRAINT "booking_calendar_events_host_id_users_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_types_team_slug_key" ON "event_types" USING btree ("team_id","slug");--> statement-breakpoint
ALTER TABLE "event_types" ADD CONSTRAINT "event_types_owner_chk" CHECK (("event_types"."user_id" is null) <> ("event_types"."team_id" is null) and ("event_types"."team_id" is null) = ("event_types"."scheduling_type" is null));--> statement-breakpoint
-- No double booking of any host, whatever mix of personal and team bookings race (decisions §15):
-- the blocked ranges [start - buffer before, end + buffer after) of a user's bookings that are not
-- cancelled never overlap, whichever booking they host and in whichever role. Half-open ranges, so
-- back-to-back bookings are allowed. Violations raise SQLSTATE 23P01, as bookings_no_overlap did.
ALTER TABLE "booking_hosts" ADD CONSTRAINT "booking_hosts_no_overlap"
  EXCLUDE USING gist ("user_id" WITH =, tstzrange("blocked_start", "blocked_end", '[)') WITH &&)
  WHERE (NOT "cancelled");--> statement-breakpoint
-- The booking's own host row follows the booking, whoever writes it: inserted with it, moved with
-- its times, its host (a round-robin reassignment) and its status. A collective booking's other
-- hosts follow the times and the status the same way.
CREATE FUNCTION "booking_hosts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "booking_hosts" ("booking_id", "user_id", "blocked_start", "blocked_end", "cancelled")
    VALUES (NEW."id", NEW."host_id", NEW."blocked_start", NEW."blocked_end", NEW."status" = 'cancelled');
    RETURN NULL;
  END IF;
  IF NEW."host_id" <> OLD."host_id" THEN
    UPDATE "booking_hosts" SET "user_id" = NEW."host_id" WHERE "booking_id" = NEW."id" AND "user_id" = OLD."host_id";
  END IF;
  IF NEW."host_id" <> OLD."host_id" OR NEW."blocked_start" <> OLD."blocked_start" OR NEW."blocked_end" <> OLD."blocked_end"
     OR NEW."status" <> OLD."status" THEN
    UPDATE "booking_hosts"
    SET "blocked_start" = NEW."blocked_start", "blocked_end" = NEW."blocked_end", "cancelled" = NEW."status" = 'cancelled'
    WHERE "booking_id" = NEW."id";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "bookings_hosts_on_insert" AFTER INSERT ON "bookings"
  FOR EACH ROW EXECUTE FUNCTION "booking_hosts_follow"();--> statement-breakpoint
CREATE TRIGGER "bookings_hosts_on_update" AFTER UPDATE OF "host_id", "blocked_start", "blocked_end", "status" ON "bookings"
  FOR EACH ROW EXECUTE FUNCTION "booking_hosts_follow"();--> statement-breakpoint
INSERT INTO "booking_hosts" ("booking_id", "user_id", "blocked_start", "blocked_end", "cancelled")
SELECT "id", "host_id", "blocked_start", "blocked_end", "status" = 'cancelled' FROM "bookings";--> statement-breakpoint
-- booking_hosts_no_overlap now holds what this held, for every host of a booking.
ALTER TABLE "bookings" DROP CONSTRAINT "bookings_no_overlap";
