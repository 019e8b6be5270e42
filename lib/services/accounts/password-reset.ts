import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db";
import { runStatements } from "@/db/client";
import { passwordResets, users } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { getConfig } from "@/lib/config";
import { validationError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { PASSWORD_RESET_EMAIL } from "@/lib/outbox/kinds";
import { insertJobsSql, JOBS_CHANNEL, jobsParam } from "@/lib/outbox/enqueue";
import { wakeJobWorker } from "@/lib/outbox/wake";
import { getRateLimitStore } from "@/lib/rate-limit";
import { open, seal } from "@/lib/secret-box";
import { resetPasswordUrl } from "@/lib/links";
import { endSessionsAndLinks, lockAccount } from "./credential-links";
import { requirePasswordLogin } from "./password-policy";
import { revokeAllApiKeys } from "@/lib/services/api-keys";
import { PasswordResetEmailJob } from "@/lib/outbox/payloads";

// Forgotten passwords (POST /auth/password-reset and …/confirm). The request answers the same
// whether or not the address has an account, and does the same work either way: one statement
// that finds the account, replaces its unused links with a new one and queues the email, and
// simply touches no rows for an unknown address (or one past its limit of mails). It takes the
// account's row like every credential verb: a change of address being confirmed finishes first,
// and the old address then finds no account.

export const RESET_TTL_MS = 60 * 60 * 1000;
/** Reset mails per address: past it a request still answers 202 and sends nothing. */
export const RESET_MAILS_PER_EMAIL = { limit: 3, windowSeconds: 60 * 60 } as const;
/** Reset requests per client address (answered 429 past it). */
export const RESET_REQUESTS_PER_ADDRESS = { name: "password-reset", limit: 5, windowSeconds: 15 * 60 } as const;
/** Confirm attempts per client address: each valid one costs an argon2 hash. */
export const RESET_CONFIRMS_PER_ADDRESS = { name: "password-reset-confirm", limit: 20, windowSeconds: 15 * 60 } as const;

export const RESET_REQUESTED_MESSAGE = "If an account uses this email, a link to reset its password is on its way. It works for one hour.";

/** The link's secret is sealed in the outbox row: the table keeps only its hash. */
export const RESET_TOKEN_PURPOSE = "outbox:password-reset";

const hashOf = (token: string) => createHash("sha256").update(token).digest("base64url");

// The account's row, its unused links replaced by a new one, and the email queued through the
// outbox's own insert (lib/outbox/enqueue.ts) only when a link was made; the NOTIFY goes either
// way, at the commit.
const RESET_SQL = `
with target as (select id from users where email = $1::text and $2::boolean for no key update),
superseded as (delete from password_resets where used_at is null and user_id in (select id from target)),
made as (
  insert into password_resets (id, user_id, token_hash, expires_at)
  select $3::text, id, $4::text, $5::text::timestamptz from target
  returning id
),
added as (${insertJobsSql(6, "exists (select from made)")} returning 1)
select pg_notify($7::text, '')::text as notified`;

export async function requestPasswordReset(db: Db, email: string, now = Date.now()): Promise<void> {
  requirePasswordLogin();
  // The per-email counter runs for unknown addresses too: a fourth request is not a signal.
  let send = true;
  if (getConfig().rateLimits) {
    const store = await getRateLimitStore();
    const key = `password-reset:email:${hashOf(email)}`;
    send = (await store.hit(key, RESET_MAILS_PER_EMAIL.limit, RESET_MAILS_PER_EMAIL.windowSeconds)).allowed;
  }
  const token = randomBytes(32).toString("base64url");
  const id = newId("pwr");
  const job = { kind: PASSWORD_RESET_EMAIL, payload: { resetId: id, sealedToken: seal(token, RESET_TOKEN_PURPOSE) } satisfies PasswordResetEmailJob };
  const params = [email, send, id, hashOf(token), new Date(now + RESET_TTL_MS).toISOString(), jobsParam([job], now), JOBS_CHANNEL];
  // One statement whatever the address: no early return that would answer faster.
  await db.transaction((tx) => runStatements(tx)([{ text: RESET_SQL, params }]));
  wakeJobWorker();
}

/** What the reset email needs: the link and its reader; undefined when the link no longer works. */
export async function passwordResetMailOf(db: Db, job: z.output<typeof PasswordResetEmailJob>, now = Date.now()) {
  const [row] = await db
    .select({ email: users.email, fullName: users.fullName, language: users.language })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(and(eq(passwordResets.id, job.resetId), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date(now))))
    .limit(1);
  const token = open(job.sealedToken, RESET_TOKEN_PURPOSE);
  if (!row || token === undefined) return undefined;
  return { to: { name: row.fullName, address: row.email }, url: resetPasswordUrl(token), language: row.language };
}

const badToken = () =>
  validationError(
    [{ path: "token", message: "This reset link has expired or was already used. Ask for a new one." }],
    "The password was not changed",
  );

/**
 * Sets the new password from a reset link: the link is spent, the password stored and every
 * earlier token, session and credential link ended in one transaction. The spending UPDATE is conditional, so two
 * requests with one link cannot both succeed.
 */
export async function confirmPasswordReset(db: Db, input: { token: string; newPassword: string }, now = Date.now()): Promise<void> {
  requirePasswordLogin();
  const tokenHash = hashOf(input.token);
  const live = and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date(now)));
  // A cheap look first: an unknown link costs no argon2 hash.
  const [found] = await db.select({ userId: passwordResets.userId }).from(passwordResets).where(live).limit(1);
  if (!found) throw badToken();
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    // The account first, then its links (credential-links.ts): a change of address confirmed
    // meanwhile has ended this link by the time the spending UPDATE looks.
    await lockAccount(tx, found.userId);
    const [spent] = await tx.update(passwordResets).set({ usedAt: new Date(now) }).where(live).returning({ userId: passwordResets.userId });
    if (!spent) throw badToken();
    // Other reset links and a pending change of address stop working too.
    await endSessionsAndLinks(tx, spent.userId, { passwordHash }, new Date(now));
    // Whoever took the account may have made keys with it: a reset by email ends them all. A
    // voluntary change of password or a sign-out does not (an integration keeps working).
    await revokeAllApiKeys(tx, spent.userId);
  });
}
