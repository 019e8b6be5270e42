import "server-only";
import { asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { availabilityOverrides, availabilityRules, users, type UserRow } from "@/db/schema";
import type { Availability, AvailabilityBody } from "@/lib/schemas/availability";
import { minutesOf, timeOf } from "@/lib/time/instants";
import { writeForHost } from "@/lib/services/schedule/host-writes";

export type AvailabilityDto = z.output<typeof Availability>;

export async function getAvailability(db: Db, host: UserRow): Promise<AvailabilityDto> {
  const [rules, overrides] = await Promise.all([
    db
      .select()
      .from(availabilityRules)
      .where(eq(availabilityRules.userId, host.id))
      .orderBy(asc(availabilityRules.dayOfWeek), asc(availabilityRules.startMinute)),
    db
      .select()
      .from(availabilityOverrides)
      .where(eq(availabilityOverrides.userId, host.id))
      .orderBy(asc(availabilityOverrides.date)),
  ]);
  return {
    timezone: host.timezone,
    minNoticeHours: host.minNoticeHours,
    maxAdvanceDays: host.maxAdvanceDays,
    weeklyRules: rules.map((r) => ({ dayOfWeek: r.dayOfWeek, startTime: timeOf(r.startMinute), endTime: timeOf(r.endMinute) })),
    dateOverrides: overrides.map((o) =>
      o.available ? { date: o.date, available: true, intervals: o.intervals } : { date: o.date, available: false },
    ),
  };
}

/** Replaces the whole availability in one transaction: readers never see half of it. */
export async function replaceAvailability(db: Db, host: UserRow, input: z.output<typeof AvailabilityBody>): Promise<AvailabilityDto> {
  const updatedHost = await writeForHost(db, host.id, async (tx) => {
    const [updated] = await tx
      .update(users)
      .set({
        minNoticeHours: input.minNoticeHours,
        maxAdvanceDays: input.maxAdvanceDays,
        ...(input.timezone ? { timezone: input.timezone } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(users.id, host.id))
      .returning();
    await tx.delete(availabilityRules).where(eq(availabilityRules.userId, host.id));
    await tx.delete(availabilityOverrides).where(eq(availabilityOverrides.userId, host.id));
    if (input.weeklyRules.length > 0) {
      await tx.insert(availabilityRules).values(
        input.weeklyRules.map((r) => ({
          userId: host.id,
          dayOfWeek: r.dayOfWeek,
          startMinute: minutesOf(r.startTime),
          endMinute: minutesOf(r.endTime),
        })),
      );
    }
    if (input.dateOverrides.length > 0) {
      await tx.insert(availabilityOverrides).values(
        input.dateOverrides.map((o) => ({
          userId: host.id,
          date: o.date,
          available: o.available,
          intervals: o.available
            ? [...(o.intervals ?? [])].sort((a, b) => minutesOf(a.startTime) - minutesOf(b.startTime))
            : [],
        })),
      );
    }
    return updated!;
  });
  return getAvailability(db, updatedHost);
}
