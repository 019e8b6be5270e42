ALTER TABLE "bookings" ADD COLUMN "sequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "previous_secret_encrypted" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "previous_secret_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "next_retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox_jobs" ADD COLUMN "locked_by" text;--> statement-breakpoint
ALTER TABLE "outbox_jobs" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
ALTER TABLE "outbox_jobs" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "outbox_jobs_lease_idx" ON "outbox_jobs" USING btree ("locked_until") WHERE "outbox_jobs"."status" = 'running';--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_jobs_dedupe_key" ON "outbox_jobs" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "outbox_jobs_booking_created_idx" ON "outbox_jobs" USING btree (("payload" ->> 'bookingId')) WHERE "outbox_jobs"."kind" = 'booking.created';