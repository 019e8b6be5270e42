import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { users, type UserRow } from "@/db/schema";
import type { UpdateProfileBody } from "@/lib/schemas/account";
import { writeForHost } from "./host-writes";

export async function updateProfile(db: Db, host: UserRow, input: z.output<typeof UpdateProfileBody>): Promise<UserRow> {
  if (Object.keys(input).length === 0) return host;
  return writeForHost(db, host.id, async (tx) => {
    const [updated] = await tx
      .update(users)
      .set({ ...input, updatedAt: sql`now()` })
      .where(eq(users.id, host.id))
      .returning();
    return updated!;
  });
}
