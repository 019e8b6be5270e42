import "server-only";
import { aliasedTable, and, asc, eq, gte, lte } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "@/db";
import { outOfOffice, users, type OutOfOfficeRow } from "@/db/schema";
import type { OutOfOffice } from "@/lib/schemas/time-off";
import { dateInZone } from "@/lib/time/format";

// The queries of time off (decisions §21): a host's periods away, each with the colleague its
// pages send guests to. The verbs are in out-of-office.ts, holidays.ts and away.ts.

export type OutOfOfficeDto = z.output<typeof OutOfOffice>;

const colleague = aliasedTable(users, "colleague");

/** Today's date in a zone (YYYY-MM-DD): every date of time off is the host's wall-clock date. */
export const todayIn = (zone: string, now = Date.now()) => dateInZone(now, zone);

/** The host's periods that end on or after `from` (and start on or before `to`, if given), by start, with their colleague. */
export async function periodsOf(db: Db | Tx, hostId: string, from: string, to?: string): Promise<OutOfOfficeDto[]> {
  const rows = await db
    .select({ period: outOfOffice, username: colleague.username, fullName: colleague.fullName })
    .from(outOfOffice)
    .leftJoin(colleague, eq(colleague.id, outOfOffice.redirectUserId))
    .where(and(eq(outOfOffice.userId, hostId), gte(outOfOffice.endDate, from), to === undefined ? undefined : lte(outOfOffice.startDate, to)))
    .orderBy(asc(outOfOffice.startDate), asc(outOfOffice.id));
  return rows.map((r) => toOutOfOffice(r.period, r.username, r.fullName));
}

export function toOutOfOffice(row: OutOfOfficeRow, redirectUsername: string | null, redirectFullName: string | null): OutOfOfficeDto {
  return {
    id: row.id,
    startDate: row.startDate,
    endDate: row.endDate,
    note: row.note === "" ? null : row.note,
    redirectUsername,
    redirectFullName,
  };
}
