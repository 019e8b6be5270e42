import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { users, type UserRow } from "@/db/schema";
import type { UpdateProfileBody } from "@/lib/schemas/account";
import { invalidateHost } from "./schedule-cache";

export async function updateProfile(db: Db, host: UserRow, input: z.output<typeof UpdateProfileBody>): Promise<UserRow> {
  if (Object.keys(input).length === 0) return host;
  const [updated] = await db
    .update(users)
    .set({ ...input, updatedAt: sql`now()` })
    .where(eq(users.id, host.id))
    .returning();
  invalidateHost(host.id);
  return updated!;
}
