import "server-only";
import { lt } from "drizzle-orm";
import type { Db } from "@/db";
import { emailChanges, passwordResets } from "@/db/schema";

const DAY = 86_400_000;

/**
 * Deletes password-reset and email-change links that expired more than a day ago: used or not,
 * they can never work again (their pages answer the same "expired or already used" without the
 * row). A day's margin keeps a link from vanishing while its page is being answered. Returns how many went.
 */
export async function pruneExpiredAccountLinks(db: Db, now: number): Promise<number> {
  const before = new Date(now - DAY);
  const [resets, changes] = await Promise.all([
    db.delete(passwordResets).where(lt(passwordResets.expiresAt, before)).returning({ id: passwordResets.id }),
    db.delete(emailChanges).where(lt(emailChanges.expiresAt, before)).returning({ id: emailChanges.id }),
  ]);
  return resets.length + changes.length;
}
