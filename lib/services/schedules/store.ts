import "server-only";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "@/db";
import { availabilityOverrides, availabilityRules, schedules, type ScheduleRow, type UserRow } from "@/db/schema";
import { newId } from "@/lib/ids";
import type { DateOverrides, WeeklyRules } from "@/lib/schemas/availability";
import type { Schedule } from "@/lib/schemas/schedule";
import { minutesOf, timeOf } from "@/lib/time/instants";

// The queries of schedules (decisions §16): their rows, and the hours (weekly rules and date
// overrides) each one owns. The verbs are in schedules.ts and availability.ts.

export type ScheduleDto = z.output<typeof Schedule>;
export type Hours = { weeklyRules: z.output<typeof WeeklyRules>; dateOverrides: z.output<typeof DateOverrides> };

/** The default schedule's name (migration 0015 gave existing hosts the same). */
export const DEFAULT_SCHEDULE_NAME = "Working hours";

/** The host's schedules, the default first, then in the order they were made (or just `id`). */
export function scheduleRowsOf(db: Db | Tx, host: UserRow, id?: string): Promise<ScheduleRow[]> {
  return db
    .select()
    .from(schedules)
    .where(and(eq(schedules.userId, host.id), id === undefined ? undefined : eq(schedules.id, id)))
    .orderBy(desc(schedules.isDefault), asc(schedules.createdAt), asc(schedules.id));
}

/** The host's default schedule, made (with no hours) for a host who has none. */
export async function ensureDefaultSchedule(tx: Db | Tx, host: UserRow): Promise<ScheduleRow> {
  await tx
    .insert(schedules)
    .values({ id: newId("sch"), userId: host.id, name: DEFAULT_SCHEDULE_NAME, timezone: null, isDefault: true })
    .onConflictDoNothing({ target: schedules.userId, where: sql`${schedules.isDefault}` });
  const [row] = await tx.select().from(schedules).where(and(eq(schedules.userId, host.id), eq(schedules.isDefault, true)));
  return row!;
}

/** Schedules as the API shows them, with their hours; the default's zone is the host's. */
export async function toScheduleDtos(db: Db | Tx, host: UserRow, rows: ScheduleRow[]): Promise<ScheduleDto[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [rules, overrides] = await Promise.all([
    db
      .select()
      .from(availabilityRules)
      .where(inArray(availabilityRules.scheduleId, ids))
      .orderBy(asc(availabilityRules.dayOfWeek), asc(availabilityRules.startMinute)),
    db.select().from(availabilityOverrides).where(inArray(availabilityOverrides.scheduleId, ids)).orderBy(asc(availabilityOverrides.date)),
  ]);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    timezone: row.timezone ?? host.timezone,
    weeklyRules: rules
      .filter((r) => r.scheduleId === row.id)
      .map((r) => ({ dayOfWeek: r.dayOfWeek, startTime: timeOf(r.startMinute), endTime: timeOf(r.endMinute) })),
    dateOverrides: overrides
      .filter((o) => o.scheduleId === row.id)
      .map((o) => (o.available ? { date: o.date, available: true, intervals: o.intervals } : { date: o.date, available: false })),
    isDefault: row.isDefault,
  }));
}

/** Replaces a schedule's weekly rules and date overrides (inside the caller's transaction). */
export async function replaceHours(tx: Tx, hostId: string, scheduleId: string, input: Hours): Promise<void> {
  await tx.delete(availabilityRules).where(eq(availabilityRules.scheduleId, scheduleId));
  await tx.delete(availabilityOverrides).where(eq(availabilityOverrides.scheduleId, scheduleId));
  if (input.weeklyRules.length > 0) {
    await tx.insert(availabilityRules).values(
      input.weeklyRules.map((r) => ({ userId: hostId, scheduleId, dayOfWeek: r.dayOfWeek, startMinute: minutesOf(r.startTime), endMinute: minutesOf(r.endTime) })),
    );
  }
  if (input.dateOverrides.length > 0) {
    await tx.insert(availabilityOverrides).values(
      input.dateOverrides.map((o) => ({
        userId: hostId,
        scheduleId,
        date: o.date,
        available: o.available,
        intervals: o.available ? [...(o.intervals ?? [])].sort((a, b) => minutesOf(a.startTime) - minutesOf(b.startTime)) : [],
      })),
    );
  }
}
