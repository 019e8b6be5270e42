import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, ne } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db";
import { pgConstraint, pgErrorCode } from "@/db/client";
import { emailChanges, users, type UserRow } from "@/db/schema";
import { AppError, validationError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { EMAIL_CHANGE_EMAIL, EMAIL_CHANGED_NOTICE, EMAIL_TAKEN_NOTICE } from "@/lib/outbox/kinds";
import { enqueueJobs } from "@/lib/outbox/enqueue";
import { wakeJobWorker } from "@/lib/outbox/wake";
import { open, seal } from "@/lib/secret-box";
import { logInGuarded } from "./login-guard";
import { noPasswordYet } from "./password-policy";
import { confirmEmailUrl } from "@/lib/links";
import type { EmailChangeEmailJob, EmailTakenNoticeJob } from "@/lib/outbox/payloads";
import { endCredentialLinks, lockAccount } from "./credential-links";

// Changing the email (POST /me/email, then the link at the new address). The password is
// checked like a login (a stolen session alone cannot move the account to another inbox), and
// the address changes only when the link mailed to it is used. Whether an address has an account
// is never told to the asker: only to that address.

export const EMAIL_CHANGE_TTL_MS = 60 * 60 * 1000;
export const EMAIL_CHANGE_TOKEN_PURPOSE = "outbox:email-change";
export const EMAIL_CHANGE_REQUESTED_MESSAGE = "We sent a link to the new address. Your email changes when you open it (within one hour).";

const hashOf = (token: string) => createHash("sha256").update(token).digest("base64url");
const taken = () => new AppError("conflict", "This email is already used by another account", { field: "newEmail" });

/** The other account that uses `email`, if any. */
async function accountUsing(db: Db, email: string, hostId: string): Promise<string | undefined> {
  const [other] = await db.select({ id: users.id }).from(users).where(and(eq(users.email, email), ne(users.id, hostId))).limit(1);
  return other?.id;
}

/**
 * POST /me/email. The answer is the same whether or not the new address has an account (no
 * oracle of who is a customer), and so is the work as far as it can be: the password check, the
 * lookup, a new secret, the earlier request ended and one email queued in one transaction. A
 * free address gets the link; a taken one gets a notice that it already has an account (no link)
 * and nothing is recorded that could change it.
 */
export async function requestEmailChange(db: Db, host: UserRow, input: { newEmail: string; password: string }, clientAddress: string, now = Date.now()) {
  if (input.newEmail === host.email) throw validationError([{ path: "newEmail", message: "This is already your email" }], "The email was not changed");
  if (!host.passwordHash) throw noPasswordYet("password", "The email was not changed");
  try {
    await logInGuarded(db, { email: host.email, password: input.password }, clientAddress);
  } catch (error) {
    if (error instanceof AppError && error.code === "unauthorized") {
      throw validationError([{ path: "password", message: "The password is incorrect" }], "The email was not changed");
    }
    throw error;
  }
  const takenBy = await accountUsing(db, input.newEmail, host.id);
  const token = randomBytes(32).toString("base64url");
  const sealedToken = seal(token, EMAIL_CHANGE_TOKEN_PURPOSE);
  const id = newId("emc");
  await db.transaction(async (tx) => {
    // A password change or sign-out everywhere that won the race ended this session: the
    // request must not outlive it (credential-links.ts).
    const account = await lockAccount(tx, host.id);
    if (!account || account.sessionVersion !== host.sessionVersion) throw new AppError("unauthorized", "Your session has ended. Log in again.");
    await tx.delete(emailChanges).where(and(eq(emailChanges.userId, host.id), isNull(emailChanges.usedAt)));
    if (takenBy) {
      const notice: EmailTakenNoticeJob = { attemptId: id, userId: takenBy };
      await enqueueJobs(tx, [{ kind: EMAIL_TAKEN_NOTICE, payload: notice }], now);
    } else {
      await tx.insert(emailChanges).values({ id, userId: host.id, newEmail: input.newEmail, tokenHash: hashOf(token), expiresAt: new Date(now + EMAIL_CHANGE_TTL_MS) });
      await enqueueJobs(tx, [{ kind: EMAIL_CHANGE_EMAIL, payload: { changeId: id, sealedToken } }], now);
    }
  });
  wakeJobWorker();
}

/** The notice to an address that already has an account: its holder as they are when it is sent. */
export async function emailTakenMailOf(db: Db, job: EmailTakenNoticeJob) {
  const [row] = await db.select({ email: users.email, fullName: users.fullName, language: users.language }).from(users).where(eq(users.id, job.userId)).limit(1);
  if (!row) return undefined;
  return { to: { name: row.fullName, address: row.email }, language: row.language };
}

/** What the confirmation email needs; undefined when the link no longer works. */
export async function emailChangeMailOf(db: Db, job: z.output<typeof EmailChangeEmailJob>, now = Date.now()) {
  const [row] = await db
    .select({ newEmail: emailChanges.newEmail, fullName: users.fullName, language: users.language })
    .from(emailChanges)
    .innerJoin(users, eq(users.id, emailChanges.userId))
    .where(and(eq(emailChanges.id, job.changeId), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, new Date(now))))
    .limit(1);
  const token = open(job.sealedToken, EMAIL_CHANGE_TOKEN_PURPOSE);
  if (!row || token === undefined) return undefined;
  return { to: { name: row.fullName, address: row.newEmail }, url: confirmEmailUrl(token), language: row.language };
}

/** The link at the new address: spends it and sets the email (verified) in one transaction. */
export async function confirmEmailChange(db: Db, token: string, now = Date.now()): Promise<{ email: string }> {
  const live = and(eq(emailChanges.tokenHash, hashOf(token)), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, new Date(now)));
  const refused = () =>
    validationError([{ path: "token", message: "This link has expired or was already used. Ask for a new one from your settings." }], "The email was not changed");
  const [found] = await db.select({ userId: emailChanges.userId }).from(emailChanges).where(live).limit(1);
  if (!found) throw refused();
  try {
    const changed = await db.transaction(async (tx) => {
      // The account first, then its links (credential-links.ts): a password change or sign-out
      // everywhere that got there first has ended this link by the time the UPDATE looks.
      await lockAccount(tx, found.userId);
      const [spent] = await tx.update(emailChanges).set({ usedAt: new Date(now) }).where(live).returning();
      if (!spent) throw refused();
      const [before] = await tx.select({ email: users.email, fullName: users.fullName, language: users.language }).from(users).where(eq(users.id, spent.userId));
      await tx.update(users).set({ email: spent.newEmail, emailVerified: true, updatedAt: new Date(now) }).where(eq(users.id, spent.userId));
      // Reset links went to the old address, and any other pending change was asked with the
      // account as it was: none of them outlives the change.
      await endCredentialLinks(tx, spent.userId);
      // The old inbox hears of it: if the change was not the owner's, this is how they find out.
      if (before) {
        const notice = { changeId: spent.id, oldEmail: before.email, newEmail: spent.newEmail, fullName: before.fullName, language: before.language };
        await enqueueJobs(tx, [{ kind: EMAIL_CHANGED_NOTICE, payload: notice }], now);
      }
      return { email: spent.newEmail };
    });
    wakeJobWorker();
    return changed;
  } catch (error) {
    // Someone registered the address between the request and the confirm.
    if (pgErrorCode(error) === "23505" && pgConstraint(error) === "users_email_key") throw taken();
    throw error;
  }
}
