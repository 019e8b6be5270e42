import "server-only";
import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { pgConstraint, pgErrorCode } from "@/db/client";
import { users, type UserRow } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { UpdateProfileBody } from "@/lib/schemas/account";
import { writeForHost } from "@/lib/services/host-time/writes";

// Through writeForHost: the public pages' cache is keyed by /{username}/{slug}, so a new
// username must drop the host's entries (here and, by NOTIFY, on other instances) or the old
// address would keep answering until they expire.
export async function updateProfile(db: Db, host: UserRow, input: z.output<typeof UpdateProfileBody>): Promise<UserRow> {
  if (Object.keys(input).length === 0) return host;
  try {
    return await writeForHost(db, host.id, async (tx) => {
      const [updated] = await tx
        .update(users)
        .set({ ...input, updatedAt: sql`now()` })
        .where(eq(users.id, host.id))
        .returning();
      return updated!;
    });
  } catch (error) {
    // The unique index settles two hosts taking one username at once.
    if (pgErrorCode(error) === "23505" && pgConstraint(error) === "users_username_key") {
      throw new AppError("conflict", "This username is already taken", { field: "username" });
    }
    throw error;
  }
}
