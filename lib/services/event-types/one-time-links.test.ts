import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { oneTimeLinks } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { rollbackDatabase } from "@/tests/support/rollback";
import { insertEventType, insertHost } from "@/tests/support/rows";
import { claimOneTimeLink, createOneTimeLink, deleteOneTimeLink, findOneTimeLink, hashLinkToken, linkEndOf, listOneTimeLinks } from "./one-time-links";
import { hostOwner } from "./owner";

// The rules of one-time links (decisions §21) on a rolled-back transaction: the token kept only
// as its hash, the expiry counted from the service's clock, which links are listed, and a link
// taken once. The HTTP side, races included, is tests/integration/one-time-links.test.ts.

const { withRollback } = rollbackDatabase();
const DAY = 86_400_000;
const gone = (reason: string) => expect.objectContaining({ code: "gone", details: { reason } });

describe("one-time links", () => {
  it("keeps the token's hash only, expires 7 days (or as asked) from now", () =>
    withRollback(async (tx) => {
      const host = await insertHost(tx);
      const eventType = await insertEventType(tx, host);
      const now = Date.parse("2031-03-10T09:00:00Z");
      const { row, url } = await createOneTimeLink(tx, hostOwner(host), eventType.id, {}, now);
      const token = url.split("/d/")[1]!;
      expect(row.tokenHash).toBe(hashLinkToken(token));
      expect(row.expiresAt.getTime()).toBe(now + 7 * DAY);
      const longer = await createOneTimeLink(tx, hostOwner(host), eventType.id, { expiresInDays: 90 }, now);
      expect(longer.row.expiresAt.getTime()).toBe(now + 90 * DAY);
      expect((await findOneTimeLink(tx, token, now))?.link.id).toBe(row.id);
      expect(await findOneTimeLink(tx, `${token}x`, now)).toBeUndefined();
    }));

  it("lists only the links that can still book, newest first", () =>
    withRollback(async (tx) => {
      const host = await insertHost(tx);
      const eventType = await insertEventType(tx, host);
      const now = Date.now();
      const owner = hostOwner(host);
      const [a, b, c, d] = [
        await createOneTimeLink(tx, owner, eventType.id, {}, now - 3000),
        await createOneTimeLink(tx, owner, eventType.id, {}, now - 2000),
        await createOneTimeLink(tx, owner, eventType.id, { expiresInDays: 1 }, now - 2 * DAY),
        await createOneTimeLink(tx, owner, eventType.id, {}, now - 1000),
      ];
      await claimOneTimeLink(tx, a!.row.id);
      await deleteOneTimeLink(tx, owner, eventType.id, b!.row.id);
      expect((await listOneTimeLinks(tx, owner, eventType.id, now)).map((l) => l.id)).toEqual([d!.row.id]);
      expect(c!.row.expiresAt.getTime()).toBeLessThan(now);
    }));

  it("a link is taken once; withdrawn or expired, it is gone with its reason", () =>
    withRollback(async (tx) => {
      const host = await insertHost(tx);
      const eventType = await insertEventType(tx, host);
      const owner = hostOwner(host);
      const used = await createOneTimeLink(tx, owner, eventType.id, {});
      await claimOneTimeLink(tx, used.row.id);
      await expect(claimOneTimeLink(tx, used.row.id)).rejects.toEqual(gone("used"));
      const withdrawn = await createOneTimeLink(tx, owner, eventType.id, {});
      await deleteOneTimeLink(tx, owner, eventType.id, withdrawn.row.id);
      await expect(claimOneTimeLink(tx, withdrawn.row.id)).rejects.toEqual(gone("withdrawn"));
      await expect(deleteOneTimeLink(tx, owner, eventType.id, withdrawn.row.id)).rejects.toBeInstanceOf(AppError);
      const expired = await createOneTimeLink(tx, owner, eventType.id, {});
      await tx.update(oneTimeLinks).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oneTimeLinks.id, expired.row.id));
      await expect(claimOneTimeLink(tx, expired.row.id)).rejects.toEqual(gone("expired"));
    }));

  it("says why a link ended: used before withdrawn before expired", () => {
    const at = new Date(1000);
    expect(linkEndOf({ usedAt: null, deletedAt: null, expiresAt: at }, 999)).toBeNull();
    expect(linkEndOf({ usedAt: null, deletedAt: null, expiresAt: at }, 1000)).toBe("expired");
    expect(linkEndOf({ usedAt: null, deletedAt: at, expiresAt: at }, 2000)).toBe("withdrawn");
    expect(linkEndOf({ usedAt: at, deletedAt: at, expiresAt: at }, 2000)).toBe("used");
  });
});
