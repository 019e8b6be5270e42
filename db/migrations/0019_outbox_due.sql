DROP INDEX "outbox_jobs_due_idx";--> statement-breakpoint
CREATE INDEX "outbox_jobs_due_idx" ON "outbox_jobs" USING btree ("run_after","id") WHERE "outbox_jobs"."status" in ('pending', 'running');