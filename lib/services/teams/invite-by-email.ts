import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, lte } from "drizzle-orm";
import type { Db } from "@/db";
import { teamEmailInvitations, teamMembers, teams, users, type TeamEmailInvitationRow, type UserRow } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { asLocale, type Locale } from "@/lib/i18n/locales";
import { newId } from "@/lib/ids";
import { signUpWithInvitationUrl, teamInvitationsUrl } from "@/lib/links";
import { enqueueJobs } from "@/lib/outbox/enqueue";
import { TEAM_INVITATION_EMAIL } from "@/lib/outbox/kinds";
import type { TeamInvitationEmailJob } from "@/lib/outbox/payloads";
import { wakeJobWorker } from "@/lib/outbox/wake";
import { open, seal } from "@/lib/secret-box";
import { invitationExpiry, pendingEmailInvitation } from "./invitation-rules";
import { assertInvitationRoom } from "./limits";
import { requireOwner, writeTeam } from "./store";

// Invitations to an email address. The answer to the owner is the same whether or not an
// account uses the address (and whether it is already in the team): the invitation is stored by
// address and shown by address. Who receives what is decided when the email is sent: an account
// with the address is pointed to its dashboard's invitations; anyone else gets a sign-up link
// whose single-use secret is sealed in the outbox row (the table keeps its SHA-256 only).

/** The link's secret is sealed in the outbox row for this use only. */
export const TEAM_INVITATION_TOKEN_PURPOSE = "outbox:team-invitation";

export const tokenHashOf = (token: string) => createHash("sha256").update(token).digest("base64url");

/** An invitation by email as the team's owners see it. */
export type EmailInvitationView = Pick<TeamEmailInvitationRow, "id" | "email" | "role" | "createdAt" | "expiresAt">;

const view = (row: TeamEmailInvitationRow): EmailInvitationView => ({ id: row.id, email: row.email, role: row.role, createdAt: row.createdAt, expiresAt: row.expiresAt });

export async function inviteByEmail(
  db: Db,
  user: UserRow,
  teamId: string,
  input: { email: string; role: "owner" | "member"; language?: Locale },
  now = Date.now(),
): Promise<EmailInvitationView> {
  const token = randomBytes(32).toString("base64url");
  const email = input.email.toLowerCase();
  const invitation = await writeTeam(db, user, teamId, async (tx, membership) => {
    requireOwner(membership);
    const sameAddress = and(eq(teamEmailInvitations.teamId, teamId), eq(teamEmailInvitations.email, email));
    await tx.delete(teamEmailInvitations).where(and(sameAddress, lte(teamEmailInvitations.expiresAt, new Date(now))));
    const [present] = await tx.select({ id: teamEmailInvitations.id }).from(teamEmailInvitations).where(sameAddress).limit(1);
    if (present) throw new AppError("conflict", "This address is already invited to the team", { field: "email" });
    await assertInvitationRoom(tx, user.id, email, "email", now);
    const [row] = await tx
      .insert(teamEmailInvitations)
      .values({ id: newId("tinv"), teamId, email, role: input.role, invitedBy: user.id, tokenHash: tokenHashOf(token), language: input.language ?? "en", expiresAt: invitationExpiry(now) })
      .returning();
    // Someone already in the team (invited or active) is not mailed an invitation to it; the
    // owner's answer does not change, so it does not tell them whose address this is.
    const [inTeam] = await tx
      .select({ userId: teamMembers.userId })
      .from(teamMembers)
      .innerJoin(users, eq(users.id, teamMembers.userId))
      .where(and(eq(teamMembers.teamId, teamId), eq(users.email, email)))
      .limit(1);
    if (!inTeam) {
      const payload: TeamInvitationEmailJob = { invitationId: row!.id, sealedToken: seal(token, TEAM_INVITATION_TOKEN_PURPOSE) };
      await enqueueJobs(tx, [{ kind: TEAM_INVITATION_EMAIL, payload }], now);
    }
    return view(row!);
  });
  wakeJobWorker();
  return invitation;
}

/**
 * What the invitation email needs, read when it is sent; undefined when the invitation was
 * withdrawn, answered or has expired meanwhile (its link would not work).
 */
export async function teamInvitationMailOf(db: Db, job: TeamInvitationEmailJob, now = Date.now()) {
  const [row] = await db
    .select({ invitation: teamEmailInvitations, teamName: teams.name, inviterName: users.fullName })
    .from(teamEmailInvitations)
    .innerJoin(teams, eq(teams.id, teamEmailInvitations.teamId))
    .leftJoin(users, eq(users.id, teamEmailInvitations.invitedBy))
    .where(and(eq(teamEmailInvitations.id, job.invitationId), pendingEmailInvitation(now)))
    .limit(1);
  const token = open(job.sealedToken, TEAM_INVITATION_TOKEN_PURPOSE);
  if (!row || token === undefined) return undefined;
  const [account] = await db.select({ fullName: users.fullName, language: users.language }).from(users).where(eq(users.email, row.invitation.email)).limit(1);
  return {
    to: { name: account?.fullName ?? "", address: row.invitation.email },
    hasAccount: account !== undefined,
    // An account's own language comes first; for an address without one, the inviter's choice.
    locale: asLocale(account?.language ?? row.invitation.language),
    teamName: row.teamName,
    inviterName: row.inviterName,
    url: account ? teamInvitationsUrl() : signUpWithInvitationUrl(token),
    expiresAt: row.invitation.expiresAt,
  };
}
