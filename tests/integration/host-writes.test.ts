import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { users } from "@/db/schema";
import { writeForHost } from "@/lib/services/host-time/writes";
import { cacheEpoch } from "@/lib/services/host-time/cache";
import { withTestDatabase } from "../support/database";
import { createHost } from "../support/factories";

withTestDatabase();

// The one door for host writes: the slot cache hears of exactly the writes that committed.
describe("writeForHost", () => {
  it("invalidates the host's cached schedule after a commit, and not after a rollback", async () => {
    const host = await createHost();
    const db = await getDb();

    const before = cacheEpoch();
    await expect(
      writeForHost(db, host.id, async (tx) => {
        await tx.update(users).set({ fullName: "Rolled back" }).where(eq(users.id, host.id));
        throw new Error("fails after writing");
      }),
    ).rejects.toThrow("fails after writing");
    expect(cacheEpoch()).toBe(before);
    const [unchanged] = await db.select().from(users).where(eq(users.id, host.id));
    expect(unchanged!.fullName).not.toBe("Rolled back");

    await writeForHost(db, host.id, (tx) => tx.update(users).set({ fullName: "Committed" }).where(eq(users.id, host.id)));
    expect(cacheEpoch()).toBe(before + 1);
  });
});
