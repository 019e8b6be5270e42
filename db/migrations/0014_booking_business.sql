CREATE TABLE "booking_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"booking_id" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"actor" text NOT NULL,
	"actor_user_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN "requires_confirmation" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN "limits" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN "reminders" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN "min_notice_hours" integer;--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN "max_advance_days" integer;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "no_show" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_history" ADD CONSTRAINT "booking_history_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_history_booking_idx" ON "booking_history" USING btree ("booking_id","id");--> statement-breakpoint
-- The story of the bookings made before history was kept: their creation, and their cancellation.
INSERT INTO "booking_history" ("booking_id", "at", "action", "actor", "details")
SELECT "id", "created_at", 'created', 'guest', '{}'::jsonb FROM "bookings" ORDER BY "created_at";--> statement-breakpoint
INSERT INTO "booking_history" ("booking_id", "at", "action", "actor", "details")
SELECT "id", coalesce("cancelled_at", "updated_at"), 'cancelled', coalesce("cancelled_by", 'host'),
  CASE WHEN "cancellation_reason" IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('reason', "cancellation_reason") END
FROM "bookings" WHERE "status" = 'cancelled' ORDER BY "cancelled_at";
