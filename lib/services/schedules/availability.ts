import "server-only";
import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { users, type UserRow } from "@/db/schema";
import type { Availability, AvailabilityBody } from "@/lib/schemas/availability";
import { writeForHost } from "@/lib/services/host-time/writes";
import { ensureDefaultSchedule, replaceHours, scheduleRowsOf, toScheduleDtos } from "./store";

// /me/availability is the host's default schedule (decisions §16), with the host's notice and
// window beside it; its timezone is the host's own.

export type AvailabilityDto = z.output<typeof Availability>;

export async function getAvailability(db: Db, host: UserRow): Promise<AvailabilityDto> {
  const rows = (await scheduleRowsOf(db, host)).filter((r) => r.isDefault);
  const [schedule] = await toScheduleDtos(db, host, rows);
  return {
    timezone: host.timezone,
    minNoticeHours: host.minNoticeHours,
    maxAdvanceDays: host.maxAdvanceDays,
    weeklyRules: schedule?.weeklyRules ?? [],
    dateOverrides: schedule?.dateOverrides ?? [],
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
    const schedule = await ensureDefaultSchedule(tx, host);
    await replaceHours(tx, host.id, schedule.id, input);
    return updated!;
  });
  return getAvailability(db, updatedHost);
}
