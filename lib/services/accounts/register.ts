import "server-only";
import type { z } from "zod";
import type { Db, Tx } from "@/db";
import { availabilityRules, eventTypes, schedules, users, type NewUserRow, type UserRow } from "@/db/schema";
import { pgConstraint, pgErrorCode } from "@/db/client";
import { hashPassword } from "@/lib/auth/password";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { STARTER_EVENT_TYPE } from "@/lib/onboarding";
import type { RegisterBody } from "@/lib/schemas/account";
import { DEFAULT_SCHEDULE_NAME } from "@/lib/services/schedules/store";
import { joinBySignUpToken } from "@/lib/services/teams";
import { enqueueJobs } from "@/lib/outbox/enqueue";
import { WELCOME_EMAIL } from "@/lib/outbox/kinds";
import type { WelcomeEmailJob } from "@/lib/outbox/payloads";
import { wakeJobWorker } from "@/lib/outbox/wake";
import { requirePasswordLogin } from "./password-policy";

// A new host starts bookable: Monday to Friday, 09:00–17:00 in their own timezone, and a
// 30-minute event type ready to share, so the link works in the first minute.
const DEFAULT_WEEKDAYS = [1, 2, 3, 4, 5];

export async function registerHost(db: Db, input: z.output<typeof RegisterBody>): Promise<UserRow> {
  // With PASSWORD_LOGIN=off a host comes only through company sign-in (decisions §22).
  requirePasswordLogin();
  const passwordHash = await hashPassword(input.password);
  return createAccount(db, { ...input, passwordHash });
}

/** What a new account starts with; passwordHash null for a host who came through OIDC (decisions §22). */
export type NewAccount = Pick<NewUserRow, "email" | "fullName" | "username" | "timezone" | "language" | "emailVerified"> & {
  passwordHash: string | null;
  invitationToken?: string | undefined;
};

/**
 * The account with its default schedule and starter event type, the welcome email queued with it,
 * in one transaction (`also` adds rows of its own to it: an OIDC identity). A taken email or
 * username is 409 `conflict` naming the field.
 */
export async function createAccount(db: Db, input: NewAccount, also?: (tx: Tx, user: UserRow) => Promise<void>): Promise<UserRow> {
  try {
    const created = await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          id: newId("usr"),
          email: input.email,
          passwordHash: input.passwordHash,
          fullName: input.fullName,
          username: input.username,
          timezone: input.timezone,
          ...(input.language ? { language: input.language } : {}),
          ...(input.emailVerified ? { emailVerified: true } : {}),
        })
        .returning();
      const scheduleId = newId("sch");
      await tx.insert(schedules).values({ id: scheduleId, userId: user!.id, name: DEFAULT_SCHEDULE_NAME, timezone: null, isDefault: true });
      await tx
        .insert(availabilityRules)
        .values(DEFAULT_WEEKDAYS.map((dayOfWeek) => ({ userId: user!.id, scheduleId, dayOfWeek, startMinute: 9 * 60, endMinute: 17 * 60 })));
      await tx.insert(eventTypes).values({ id: newId("evt"), userId: user!.id, ...STARTER_EVENT_TYPE });
      if (input.invitationToken) await joinBySignUpToken(tx, user!, input.invitationToken);
      await also?.(tx, user!);
      // The welcome, with the link to share, goes out with the account or not at all.
      const welcome: WelcomeEmailJob = { userId: user!.id };
      await enqueueJobs(tx, [{ kind: WELCOME_EMAIL, payload: welcome }]);
      return user!;
    });
    wakeJobWorker();
    return created;
  } catch (error) {
    // The unique indexes settle concurrent sign-ups with the same email or username.
    if (pgErrorCode(error) === "23505") {
      const field = pgConstraint(error) === "users_username_key" ? "username" : "email";
      throw new AppError("conflict", `This ${field} is already taken`, { field });
    }
    throw error;
  }
}
