ALTER TABLE "users" ADD COLUMN "feed_token_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_feed_token_hash_key" ON "users" USING btree ("feed_token_hash");