import "server-only";
import { and, eq, gte, lte } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { outOfOffice, users, type UserRow } from "@/db/schema";
import { AppError, notFound, validationError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { CreateOutOfOfficeBody } from "@/lib/schemas/time-off";
import { writeForHost } from "@/lib/services/host-time/writes";
import { lockName } from "@/lib/store/locks";
import { formatCalendarDate } from "@/lib/time/month-grid";
import { periodsOf, todayIn, toOutOfOffice, type OutOfOfficeDto } from "./store";

// GET/POST /me/out-of-office, DELETE /me/out-of-office/{id} (decisions §21). A period is whole
// days of the host's, both ends inclusive, read in the host's zone. Every write goes through
// writeForHost: the host's slots (and the booking pages made of them) are retired at the commit.
// Two periods of one host never overlap: the creations of one host take turns under a lock, so
// the check and the insert cannot be crossed by another request.

/** The host's time off that has not ended (today in the host's zone, or later), by start. */
export function listOutOfOffice(db: Db, host: UserRow, now = Date.now()): Promise<OutOfOfficeDto[]> {
  return periodsOf(db, host.id, todayIn(host.timezone, now));
}

const inWords = (date: string) => formatCalendarDate(date, { year: true });

export async function createOutOfOffice(db: Db, host: UserRow, input: z.output<typeof CreateOutOfOfficeBody>, now = Date.now()): Promise<OutOfOfficeDto> {
  const today = todayIn(host.timezone, now);
  if (input.endDate < today) {
    throw validationError([{ path: "endDate", message: `Must be today (${inWords(today)}) or later in your timezone (${host.timezone})` }]);
  }
  let colleague: { id: string; username: string; fullName: string } | null = null;
  if (input.redirectUsername !== null) {
    const [found] = await db
      .select({ id: users.id, username: users.username, fullName: users.fullName })
      .from(users)
      .where(eq(users.username, input.redirectUsername.toLowerCase()));
    if (!found) throw validationError([{ path: "redirectUsername", message: `No one has the username “${input.redirectUsername}”` }]);
    if (found.id === host.id) throw validationError([{ path: "redirectUsername", message: "Name a colleague, not yourself: guests are sent to them while you are away" }]);
    colleague = found;
  }
  const row = await writeForHost(db, host.id, async (tx) => {
    await lockName(tx, `out-of-office:${host.id}`);
    const [overlap] = await tx
      .select()
      .from(outOfOffice)
      .where(and(eq(outOfOffice.userId, host.id), lte(outOfOffice.startDate, input.endDate), gte(outOfOffice.endDate, input.startDate)))
      .limit(1);
    if (overlap) {
      throw new AppError("conflict", `Overlaps your time off from ${inWords(overlap.startDate)} to ${inWords(overlap.endDate)}; change the dates or delete that one first`, {
        id: overlap.id,
        startDate: overlap.startDate,
        endDate: overlap.endDate,
      });
    }
    const [made] = await tx
      .insert(outOfOffice)
      .values({ id: newId("ooo"), userId: host.id, startDate: input.startDate, endDate: input.endDate, note: input.note ?? "", redirectUserId: colleague?.id ?? null })
      .returning();
    return made!;
  });
  return toOutOfOffice(row, colleague?.username ?? null, colleague?.fullName ?? null);
}

/** Deletes one of the host's periods; another host's is not found. */
export async function deleteOutOfOffice(db: Db, host: UserRow, id: string): Promise<void> {
  const gone = await writeForHost(db, host.id, (tx) =>
    tx.delete(outOfOffice).where(and(eq(outOfOffice.id, id), eq(outOfOffice.userId, host.id))).returning({ id: outOfOffice.id }),
  );
  if (gone.length === 0) throw notFound("Time off");
}
