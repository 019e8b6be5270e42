CREATE TABLE "team_email_invitations" (
	"id" text PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"invited_by" text,
	"token_hash" text NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "team_email_invitations_role_chk" CHECK ("team_email_invitations"."role" in ('owner', 'member'))
);
--> statement-breakpoint
ALTER TABLE "team_members" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "team_email_invitations" ADD CONSTRAINT "team_email_invitations_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_email_invitations" ADD CONSTRAINT "team_email_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "team_email_invitations_team_email_key" ON "team_email_invitations" USING btree ("team_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "team_email_invitations_token_hash_key" ON "team_email_invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "team_email_invitations_email_idx" ON "team_email_invitations" USING btree ("email");--> statement-breakpoint
CREATE INDEX "team_email_invitations_invited_by_idx" ON "team_email_invitations" USING btree ("invited_by");--> statement-breakpoint
-- Invitations sent before they could expire get the same seven days, counted from their sending.
UPDATE "team_members" SET "expires_at" = "created_at" + interval '7 days' WHERE "status" = 'invited';
