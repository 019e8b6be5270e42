import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";

// What `npm run doctor` reads from the database: which migrations are applied, and under which
// keys the stored sealed values were sealed. Read-only, and bounded (the doctor also runs against
// a database with a million bookings).

/** The `created_at` (the journal's `when`) of every applied migration; undefined when none ever ran. */
export async function appliedMigrations(db: Db): Promise<number[] | undefined> {
  const [table] = await db.execute<{ name: string | null }>(sql`select to_regclass('drizzle.__drizzle_migrations')::text as name`).then((r) => rowsOf<{ name: string | null }>(r));
  if (!table?.name) return undefined;
  const rows = await db.execute<{ created_at: string | number }>(sql`select created_at from drizzle.__drizzle_migrations order by created_at`).then((r) => rowsOf<{ created_at: string | number }>(r));
  return rows.map((r) => Number(r.created_at));
}

export type SealedKeyCount = { keyId: string; where: string; count: number };

/**
 * Per key id, how many stored values were sealed under it: calendar credentials and webhook secrets
 * (a few per host), and a sample of 500 guest links (the table has a row per booking).
 */
export async function sealedKeyIds(db: Db): Promise<SealedKeyCount[]> {
  const rows = await db
    .execute<{ key_id: string; where_: string; n: string | number }>(
      sql`select split_part(v, '.', 2) as key_id, where_, count(*) as n from (
            select credentials_encrypted as v, 'calendar connections' as where_ from calendar_connections
            union all select secret_encrypted, 'webhook secrets' from webhooks
            union all select * from (select sealed_token, 'guest links' from booking_guest_tokens order by booking_id desc limit 500) g
          ) s group by 1, 2`,
    )
    .then((r) => rowsOf<{ key_id: string; where_: string; n: string | number }>(r));
  return rows.map((r) => ({ keyId: r.key_id, where: r.where_, count: Number(r.n) }));
}

// postgres.js answers an array of rows, PGlite an object with `rows`.
function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}
