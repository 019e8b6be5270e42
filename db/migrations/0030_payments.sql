CREATE TABLE "payment_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"booking_id" text,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"stripe_refund_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "payment_refunds_amount_chk" CHECK ("payment_refunds"."amount" >= 1)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"booking_id" text NOT NULL,
	"event_type_id" text NOT NULL,
	"host_id" text NOT NULL,
	"series_id" text,
	"quantity" integer DEFAULT 1 NOT NULL,
	"unit_amount" integer NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"refundable_until_hours" integer NOT NULL,
	"status" text DEFAULT 'unpaid' NOT NULL,
	"hold_expires_at" timestamp with time zone NOT NULL,
	"checkout_session_id" text,
	"checkout_url" text,
	"payment_intent_id" text,
	"paid_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_amount_chk" CHECK ("payments"."unit_amount" >= 1 and "payments"."quantity" >= 1 and "payments"."amount" = "payments"."unit_amount" * "payments"."quantity")
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN "price" jsonb;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "payment_id" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "payment_status" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "price_amount" integer;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "price_currency" text;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_event_type_id_event_types_id_fk" FOREIGN KEY ("event_type_id") REFERENCES "public"."event_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_host_id_users_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_refunds_booking_key" ON "payment_refunds" USING btree ("payment_id","booking_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_checkout_session_key" ON "payments" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE INDEX "payments_hold_idx" ON "payments" USING btree ("hold_expires_at") WHERE "payments"."status" = 'unpaid';--> statement-breakpoint
CREATE INDEX "payments_host_created_idx" ON "payments" USING btree ("host_id","created_at");--> statement-breakpoint
CREATE INDEX "bookings_payment_idx" ON "bookings" USING btree ("payment_id") WHERE "bookings"."payment_id" is not null;