-- A host's bookings list answers an exact total without counting the host's whole history on
-- every request: booking_hosts carries each booking's status (kept by the triggers that keep its
-- times), and host_booking_counts holds its rows counted by (user, status), kept in the writing
-- transaction by statement triggers on booking_hosts (lib/services/bookings/list.ts reads them).
CREATE TABLE "host_booking_counts" (
	"user_id" text NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "host_booking_counts_user_id_status_pk" PRIMARY KEY("user_id","status")
);
--> statement-breakpoint
ALTER TABLE "host_booking_counts" ADD CONSTRAINT "host_booking_counts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_hosts" ADD COLUMN "status" text;--> statement-breakpoint
UPDATE "booking_hosts" bh SET "status" = b."status" FROM "bookings" b WHERE b."id" = bh."booking_id";--> statement-breakpoint
ALTER TABLE "booking_hosts" ALTER COLUMN "status" SET NOT NULL;--> statement-breakpoint
-- The status follows the booking as its times do. A new booking's statement may write every host's
-- row itself (lib/services/bookings/commit.ts: one statement, so the hosts' counters are taken in
-- one order); the booking's own host's row is then there already when this trigger fires, at the
-- end of that statement, and is left as it is.
CREATE OR REPLACE FUNCTION "booking_hosts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "booking_hosts" ("booking_id", "user_id", "blocked_start", "blocked_end", "cancelled", "start_time", "status")
    VALUES (NEW."id", NEW."host_id", NEW."blocked_start", NEW."blocked_end", NEW."status" = 'cancelled', NEW."start_time", NEW."status")
    ON CONFLICT ("booking_id", "user_id") DO NOTHING;
    RETURN NULL;
  END IF;
  IF NEW."host_id" <> OLD."host_id" THEN
    UPDATE "booking_hosts" SET "user_id" = NEW."host_id" WHERE "booking_id" = NEW."id" AND "user_id" = OLD."host_id";
  END IF;
  IF NEW."host_id" <> OLD."host_id" OR NEW."blocked_start" <> OLD."blocked_start" OR NEW."blocked_end" <> OLD."blocked_end"
     OR NEW."status" <> OLD."status" OR NEW."start_time" <> OLD."start_time" THEN
    UPDATE "booking_hosts"
    SET "blocked_start" = NEW."blocked_start", "blocked_end" = NEW."blocked_end", "cancelled" = NEW."status" = 'cancelled',
        "start_time" = NEW."start_time", "status" = NEW."status"
    WHERE "booking_id" = NEW."id";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- The counters follow booking_hosts, whoever writes it (the triggers above, a collective
-- booking's commit, a cascade from a deleted booking or user): once per statement, from its
-- transition tables, -1 per old row and +1 per new row by (user, status), only the keys that
-- changed, applied in (user, status) order. One order for every writer: two transactions that
-- touch the same hosts' counters (collective bookings sharing hosts) wait for each other and never
-- deadlock. A row at 0 stays, so a decrement always finds its row, and a decrement whose row is
-- gone is a user's deletion cascading (the counters went with the user) and is dropped.
CREATE FUNCTION "host_booking_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "host_booking_counts" AS c ("user_id", "status", "n")
    SELECT "user_id", "status", count(*)::int FROM "new_rows" GROUP BY "user_id", "status" ORDER BY "user_id", "status"
    ON CONFLICT ("user_id", "status") DO UPDATE SET "n" = c."n" + excluded."n";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "host_booking_counts" AS c ("user_id", "status", "n")
    SELECT o."user_id", o."status", -count(*)::int FROM "old_rows" o
    WHERE EXISTS (SELECT FROM "host_booking_counts" k WHERE k."user_id" = o."user_id" AND k."status" = o."status")
    GROUP BY o."user_id", o."status" ORDER BY o."user_id", o."status"
    ON CONFLICT ("user_id", "status") DO UPDATE SET "n" = c."n" + excluded."n";
  ELSE
    INSERT INTO "host_booking_counts" AS c ("user_id", "status", "n")
    SELECT d."user_id", d."status", sum(d."n")::int
    FROM (SELECT "user_id", "status", -1 AS "n" FROM "old_rows" UNION ALL SELECT "user_id", "status", 1 FROM "new_rows") d
    GROUP BY d."user_id", d."status"
    HAVING sum(d."n") > 0
        OR (sum(d."n") < 0 AND EXISTS (SELECT FROM "host_booking_counts" k WHERE k."user_id" = d."user_id" AND k."status" = d."status"))
    ORDER BY d."user_id", d."status"
    ON CONFLICT ("user_id", "status") DO UPDATE SET "n" = c."n" + excluded."n";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- PostgreSQL takes transition tables on single-event triggers only: one per event.
CREATE TRIGGER "booking_hosts_counts_on_insert" AFTER INSERT ON "booking_hosts"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "host_booking_counts_follow"();--> statement-breakpoint
CREATE TRIGGER "booking_hosts_counts_on_update" AFTER UPDATE ON "booking_hosts"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "host_booking_counts_follow"();--> statement-breakpoint
CREATE TRIGGER "booking_hosts_counts_on_delete" AFTER DELETE ON "booking_hosts"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "host_booking_counts_follow"();--> statement-breakpoint
INSERT INTO "host_booking_counts" ("user_id", "status", "n")
SELECT "user_id", "status", count(*)::int FROM "booking_hosts" GROUP BY "user_id", "status";
