CREATE TABLE "schedules" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"timezone" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedules_default_zone_chk" CHECK ("schedules"."is_default" = ("schedules"."timezone" is null))
);
--> statement-breakpoint
DROP INDEX "availability_rules_user_idx";--> statement-breakpoint
DROP INDEX "availability_overrides_user_date_key";--> statement-breakpoint
ALTER TABLE "availability_rules" ADD COLUMN "schedule_id" text;--> statement-breakpoint
ALTER TABLE "availability_overrides" ADD COLUMN "schedule_id" text;--> statement-breakpoint
-- Backfill (hand SQL): every existing host gets a default schedule that owns their current rules
-- and overrides; its zone is the host's own (null, decisions §5).
INSERT INTO "schedules" ("id", "user_id", "name", "timezone", "is_default")
SELECT 'sch_' || substr(md5(random()::text || "id" || clock_timestamp()::text), 1, 22), "id", 'Working hours', NULL, true FROM "users";--> statement-breakpoint
UPDATE "availability_rules" r SET "schedule_id" = s."id" FROM "schedules" s WHERE s."user_id" = r."user_id" AND s."is_default";--> statement-breakpoint
UPDATE "availability_overrides" o SET "schedule_id" = s."id" FROM "schedules" s WHERE s."user_id" = o."user_id" AND s."is_default";--> statement-breakpoint
ALTER TABLE "availability_rules" ALTER COLUMN "schedule_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "availability_overrides" ALTER COLUMN "schedule_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN "schedule_id" text;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "schedules_user_idx" ON "schedules" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "schedules_one_default_key" ON "schedules" USING btree ("user_id") WHERE "schedules"."is_default";--> statement-breakpoint
ALTER TABLE "availability_rules" ADD CONSTRAINT "availability_rules_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "availability_overrides" ADD CONSTRAINT "availability_overrides_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_types" ADD CONSTRAINT "event_types_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "availability_rules_schedule_idx" ON "availability_rules" USING btree ("schedule_id");--> statement-breakpoint
CREATE UNIQUE INDEX "availability_overrides_schedule_date_key" ON "availability_overrides" USING btree ("schedule_id","date");