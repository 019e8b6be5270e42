CREATE TABLE "calendar_push_channels" (
	"id" text PRIMARY KEY NOT NULL,
	"connection_id" text NOT NULL,
	"calendar_id" text NOT NULL,
	"provider" text NOT NULL,
	"channel_id" text NOT NULL,
	"resource_id" text,
	"secret_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD COLUMN "busy_as_of" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "calendars" ADD COLUMN "read_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "calendars" ADD COLUMN "sync_state" text;--> statement-breakpoint
ALTER TABLE "calendars" ADD COLUMN "synced_to" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "busy_intervals" ADD COLUMN "event_key" text;--> statement-breakpoint
ALTER TABLE "calendar_push_channels" ADD CONSTRAINT "calendar_push_channels_connection_id_calendar_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."calendar_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_push_channels" ADD CONSTRAINT "calendar_push_channels_calendar_id_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_push_channels_channel_key" ON "calendar_push_channels" USING btree ("provider","channel_id");--> statement-breakpoint
CREATE INDEX "calendar_push_channels_connection_idx" ON "calendar_push_channels" USING btree ("connection_id");--> statement-breakpoint
CREATE INDEX "calendar_push_channels_expires_idx" ON "calendar_push_channels" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "busy_intervals_calendar_event_idx" ON "busy_intervals" USING btree ("calendar_id","event_key");