CREATE TABLE "booking_guest_tokens" (
	"booking_id" text PRIMARY KEY NOT NULL,
	"sealed_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "outbox_jobs_booking_created_idx";--> statement-breakpoint
ALTER TABLE "booking_guest_tokens" ADD CONSTRAINT "booking_guest_tokens_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_jobs_finished_idx" ON "outbox_jobs" USING btree ("finished_at") WHERE "outbox_jobs"."status" in ('done', 'failed');--> statement-breakpoint
-- Tokens sealed into booking.created outbox rows before this table existed move here, so the links
-- in later emails keep working once finished outbox rows are pruned; the outbox keeps no copy.
INSERT INTO "booking_guest_tokens" ("booking_id", "sealed_token", "created_at")
SELECT DISTINCT ON (o."payload" ->> 'bookingId') o."payload" ->> 'bookingId', o."payload" ->> 'sealedGuestToken', o."created_at"
FROM "outbox_jobs" o JOIN "bookings" b ON b."id" = o."payload" ->> 'bookingId'
WHERE o."kind" = 'booking.created' AND o."payload" ->> 'sealedGuestToken' IS NOT NULL
ORDER BY o."payload" ->> 'bookingId', o."id"
ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "outbox_jobs" SET "payload" = "payload" - 'sealedGuestToken' WHERE "payload" ->> 'sealedGuestToken' IS NOT NULL;--> statement-breakpoint
UPDATE "outbox_jobs" SET "payload" = jsonb_set("payload", '{event}', ("payload" -> 'event') - 'sealedGuestToken')
WHERE "kind" = 'email.booking' AND "payload" -> 'event' ->> 'sealedGuestToken' IS NOT NULL;
