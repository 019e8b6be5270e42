CREATE TABLE "calls" (
	"id" text PRIMARY KEY NOT NULL,
	"host_id" text NOT NULL,
	"booking_id" text NOT NULL,
	"agent" text NOT NULL,
	"to_number" text NOT NULL,
	"provider_call_sid" text,
	"status" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_host_id_users_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calls_host_created_idx" ON "calls" USING btree ("host_id","created_at");--> statement-breakpoint
CREATE INDEX "calls_booking_idx" ON "calls" USING btree ("booking_id");--> statement-breakpoint
CREATE UNIQUE INDEX "calls_provider_call_sid_key" ON "calls" USING btree ("provider_call_sid");