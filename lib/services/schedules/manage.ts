import "server-only";
import { and, eq, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "@/db";
import { pgErrorCode } from "@/db/client";
import { eventTypes, schedules, users, type ScheduleRow, type UserRow } from "@/db/schema";
import { AppError, notFound, validationError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { CreateScheduleBody, UpdateScheduleBody } from "@/lib/schemas/schedule";
import { writeForHost } from "@/lib/services/host-time/writes";
import { replaceHours, scheduleRowsOf, toScheduleDtos, type ScheduleDto } from "./store";

// GET/POST /me/schedules, GET/PUT/DELETE /me/schedules/{id} (decisions §16). A host has one
// default schedule (the one /me/availability shows, whose zone is the host's own timezone) and
// any number up to MAX_SCHEDULES of others, each read in its own zone. Every write goes through
// writeForHost under the host's lock: the host's slot caches are retired, and two writes that
// move the default cannot cross.

const MAX_SCHEDULES = 50;

export async function listSchedules(db: Db, host: UserRow): Promise<ScheduleDto[]> {
  return toScheduleDtos(db, host, await scheduleRowsOf(db, host));
}

export async function getSchedule(db: Db, host: UserRow, id: string): Promise<ScheduleDto> {
  const [dto] = await toScheduleDtos(db, host, await scheduleRowsOf(db, host, id));
  if (!dto) throw notFound("Schedule");
  return dto;
}

/**
 * Makes `id` the host's default: the old default keeps the host's zone as its own, the new one's
 * zone becomes the host's timezone (one source of truth, decisions §5). Returns the host as updated.
 */
async function promote(tx: Tx, host: UserRow, id: string, zone: string): Promise<UserRow> {
  await tx
    .update(schedules)
    .set({ isDefault: false, timezone: host.timezone, updatedAt: sql`now()` })
    .where(and(eq(schedules.userId, host.id), eq(schedules.isDefault, true), ne(schedules.id, id)));
  await tx.update(schedules).set({ isDefault: true, timezone: null, updatedAt: sql`now()` }).where(eq(schedules.id, id));
  return setHostZone(tx, host, zone);
}

async function setHostZone(tx: Tx, host: UserRow, zone: string): Promise<UserRow> {
  if (zone === host.timezone) return host;
  const [updated] = await tx.update(users).set({ timezone: zone, updatedAt: sql`now()` }).where(eq(users.id, host.id)).returning();
  return updated!;
}

export async function createSchedule(db: Db, host: UserRow, input: z.output<typeof CreateScheduleBody>): Promise<ScheduleDto> {
  return writeForHost(
    db,
    host.id,
    async (tx) => {
      const [{ count }] = (await tx.select({ count: sql<number>`count(*)::int` }).from(schedules).where(eq(schedules.userId, host.id))) as [{ count: number }];
      if (count >= MAX_SCHEDULES) throw new AppError("conflict", `You have ${MAX_SCHEDULES} schedules, the most a host may keep; delete one first`);
      const zone = input.timezone ?? host.timezone;
      const id = newId("sch");
      // Stored as a non-default first: promote() then settles the zones of both defaults.
      await tx.insert(schedules).values({ id, userId: host.id, name: input.name, timezone: zone, isDefault: false });
      // A host without any schedule (none was ever made) gets this one as the default.
      const owner = input.isDefault || count === 0 ? await promote(tx, host, id, zone) : host;
      await replaceHours(tx, host.id, id, input);
      return toOne(tx, owner, id);
    },
    { lockBookings: true },
  );
}

export async function replaceSchedule(db: Db, host: UserRow, id: string, input: z.output<typeof UpdateScheduleBody>): Promise<ScheduleDto> {
  return writeForHost(
    db,
    host.id,
    async (tx) => {
      const row = await mineForUpdate(tx, host, id);
      if (row.isDefault && input.isDefault === false) {
        throw validationError([{ path: "isDefault", message: "The default schedule stays the default until another is made the default" }]);
      }
      await tx.update(schedules).set({ name: input.name, updatedAt: sql`now()` }).where(eq(schedules.id, id));
      let owner = host;
      if (row.isDefault) owner = await setHostZone(tx, host, input.timezone ?? host.timezone);
      else if (input.isDefault) owner = await promote(tx, host, id, input.timezone ?? row.timezone!);
      else if (input.timezone) await tx.update(schedules).set({ timezone: input.timezone }).where(eq(schedules.id, id));
      await replaceHours(tx, host.id, id, input);
      return toOne(tx, owner, id);
    },
    { lockBookings: true },
  );
}

/** 204; the default (409) and a schedule an event type uses (409, naming them) stay. */
export async function deleteSchedule(db: Db, host: UserRow, id: string): Promise<void> {
  await writeForHost(
    db,
    host.id,
    async (tx) => {
      const row = await mineForUpdate(tx, host, id);
      if (row.isDefault) throw new AppError("conflict", "The default schedule cannot be deleted; make another schedule the default first");
      try {
        // A savepoint keeps the transaction usable after the foreign-key error; the key, not a
        // count read beforehand, decides, so an event type taking the schedule meanwhile is seen.
        await tx.transaction((sp) => sp.delete(schedules).where(eq(schedules.id, id)));
      } catch (error) {
        if (pgErrorCode(error) !== "23503") throw error;
        const using = await tx.select({ id: eventTypes.id, title: eventTypes.title }).from(eventTypes).where(eq(eventTypes.scheduleId, id));
        throw new AppError("conflict", `This schedule is in use by ${using.map((e) => `“${e.title}”`).join(", ") || "an event type"}; give them another schedule first`, {
          eventTypeIds: using.map((e) => e.id),
        });
      }
    },
    { lockBookings: true },
  );
}

async function mineForUpdate(tx: Tx, host: UserRow, id: string): Promise<ScheduleRow> {
  const [row] = await tx
    .select()
    .from(schedules)
    .where(and(eq(schedules.id, id), eq(schedules.userId, host.id)))
    .for("update");
  if (!row) throw notFound("Schedule");
  return row;
}

async function toOne(tx: Tx, host: UserRow, id: string): Promise<ScheduleDto> {
  const [dto] = await toScheduleDtos(tx, host, await scheduleRowsOf(tx, host, id));
  return dto!;
}

/**
 * 400 at `scheduleId` unless it names one of the host's schedules (an event type's scheduleId;
 * null is the default). Read in the event type's own write; the foreign key covers a delete racing it.
 */
export async function assertOwnSchedule(tx: Db | Tx, host: UserRow, scheduleId: string | null | undefined): Promise<void> {
  if (scheduleId === null || scheduleId === undefined) return;
  const [row] = await tx
    .select({ id: schedules.id })
    .from(schedules)
    .where(and(eq(schedules.id, scheduleId), eq(schedules.userId, host.id)));
  if (!row) throw validationError([{ path: "scheduleId", message: "No schedule of yours has this id" }]);
}
