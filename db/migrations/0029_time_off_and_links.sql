CREATE TABLE "out_of_office" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"redirect_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "out_of_office_dates_chk" CHECK ("out_of_office"."end_date" >= "out_of_office"."start_date")
);
--> statement-breakpoint
CREATE TABLE "one_time_links" (
	"id" text PRIMARY KEY NOT NULL,
	"event_type_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"booking_id" text,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "holiday_country" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "holiday_region" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "holiday_working_on" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN "conflict_calendars" jsonb;--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD COLUMN "broken_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD COLUMN "broken_notices" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD COLUMN "broken_notified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "out_of_office" ADD CONSTRAINT "out_of_office_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "out_of_office" ADD CONSTRAINT "out_of_office_redirect_user_id_users_id_fk" FOREIGN KEY ("redirect_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_time_links" ADD CONSTRAINT "one_time_links_event_type_id_event_types_id_fk" FOREIGN KEY ("event_type_id") REFERENCES "public"."event_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_time_links" ADD CONSTRAINT "one_time_links_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "out_of_office_user_end_idx" ON "out_of_office" USING btree ("user_id","end_date");--> statement-breakpoint
CREATE UNIQUE INDEX "one_time_links_token_hash_key" ON "one_time_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "one_time_links_event_type_idx" ON "one_time_links" USING btree ("event_type_id","created_at");--> statement-breakpoint
-- A broken calendar is never silent (decisions §21): since when a connection has been broken is
-- kept here, whatever code sets its status, so the reconnect emails count from the right moment.
-- Fixed, it forgets the breakage and the emails sent for it.
CREATE OR REPLACE FUNCTION "calendar_connections_broken_since"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."status" = 'connected' THEN
    NEW."broken_since" := NULL;
    NEW."broken_notices" := 0;
    NEW."broken_notified_at" := NULL;
  ELSIF NEW."broken_since" IS NULL THEN
    NEW."broken_since" := now();
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "calendar_connections_broken_since" BEFORE INSERT OR UPDATE OF "status" ON "calendar_connections"
  FOR EACH ROW EXECUTE FUNCTION "calendar_connections_broken_since"();--> statement-breakpoint
UPDATE "calendar_connections" SET "broken_since" = now() WHERE "status" <> 'connected';--> statement-breakpoint
CREATE INDEX "calendar_connections_broken_idx" ON "calendar_connections" USING btree ("broken_since") WHERE "broken_since" IS NOT NULL;
