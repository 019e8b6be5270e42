// `tsx e2e/support/outbox-check.mts <pglite dir | postgres url> <username>`: counts, straight from
// the database, a host's bookings and those without their booking.created outbox row. Run as its
// own process after the service was killed, so it opens the data the way a restart would.
import { sql } from "drizzle-orm";
import { openPglite, openPostgres } from "../../db/client";

const [where, username] = process.argv.slice(2);
const database = where!.startsWith("postgres") ? await openPostgres(where!, { max: 1 }) : await openPglite(where);
const result = await database.db.execute(sql`
  select count(*)::int as total,
         count(*) filter (where not exists (
           select 1 from outbox_jobs o where o.kind = 'booking.created' and o.payload->'data'->>'id' = b.id))::int as "bookingsWithoutEvent"
  from bookings b join users u on u.id = b.host_id
  where u.username = ${username}`);
const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { total: number; bookingsWithoutEvent: number }[];
await database.close();
process.stdout.write(JSON.stringify(rows[0]));
