import "server-only";
import { and, asc, eq, notExists } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { teamEmailInvitations, teamMembers, teams, users, type UserRow } from "@/db/schema";
import { notFound } from "@/lib/errors";
import { pendingEmailInvitation } from "./invitation-rules";
import { tokenHashOf, type EmailInvitationView } from "./invite-by-email";
import { requireOwner, writeTeam } from "./store";

// What happens to an invitation by email after it is sent: the owners list and withdraw it; the
// account with its address accepts or declines it like any invitation (POST …/accept, DELETE
// …/members/{own userId}); a new person registers through its link, which spends it.

/** The invitations by email of a team still waiting for an answer, oldest first (its owners see them). */
export async function listTeamEmailInvitations(db: Db | Tx, teamId: string): Promise<EmailInvitationView[]> {
  return db
    .select({
      id: teamEmailInvitations.id,
      email: teamEmailInvitations.email,
      role: teamEmailInvitations.role,
      createdAt: teamEmailInvitations.createdAt,
      expiresAt: teamEmailInvitations.expiresAt,
    })
    .from(teamEmailInvitations)
    .where(and(eq(teamEmailInvitations.teamId, teamId), pendingEmailInvitation()))
    .orderBy(asc(teamEmailInvitations.createdAt), asc(teamEmailInvitations.id));
}

/** An owner withdraws an invitation by email: its link stops working. Another team's id is 404. */
export async function withdrawEmailInvitation(db: Db, user: UserRow, teamId: string, invitationId: string): Promise<void> {
  await writeTeam(db, user, teamId, async (tx, membership) => {
    requireOwner(membership);
    const gone = await tx
      .delete(teamEmailInvitations)
      .where(and(eq(teamEmailInvitations.teamId, teamId), eq(teamEmailInvitations.id, invitationId)))
      .returning({ id: teamEmailInvitations.id });
    if (gone.length === 0) throw notFound("Invitation");
  });
}

/** Invitations by email to the caller's address, from teams they are not in, with who sent them. */
export function emailInvitationsTo(db: Db, user: UserRow) {
  const mine = and(
    eq(teamEmailInvitations.email, user.email),
    pendingEmailInvitation(),
    notExists(db.select({ one: teamMembers.userId }).from(teamMembers).where(and(eq(teamMembers.teamId, teamEmailInvitations.teamId), eq(teamMembers.userId, user.id)))),
  );
  return db
    .select({
      team: { id: teams.id, slug: teams.slug, name: teams.name },
      role: teamEmailInvitations.role,
      invitedAt: teamEmailInvitations.createdAt,
      inviterId: users.id,
      inviterUsername: users.username,
      inviterName: users.fullName,
    })
    .from(teamEmailInvitations)
    .innerJoin(teams, eq(teams.id, teamEmailInvitations.teamId))
    .leftJoin(users, eq(users.id, teamEmailInvitations.invitedBy))
    .where(mine)
    .orderBy(asc(teamEmailInvitations.createdAt), asc(teamEmailInvitations.teamId));
}

/**
 * Turns a waiting invitation by email to the caller's address into their `invited` place in the
 * team (the caller holds the team's row lock), so accepting and declining work as for one by
 * username. True when there was one.
 */
export async function claimEmailInvitation(tx: Tx, user: UserRow, teamId: string, now = Date.now()): Promise<boolean> {
  const [claimed] = await tx
    .delete(teamEmailInvitations)
    .where(and(eq(teamEmailInvitations.teamId, teamId), eq(teamEmailInvitations.email, user.email), pendingEmailInvitation(now)))
    .returning();
  if (!claimed) return false;
  await tx
    .insert(teamMembers)
    .values({ teamId, userId: user.id, role: claimed.role, status: "invited", invitedBy: claimed.invitedBy, expiresAt: claimed.expiresAt })
    .onConflictDoNothing();
  return true;
}

/** The invitation a sign-up link carries, for the sign-up page to name; undefined when it no longer works. */
export async function invitationOfSignUpToken(db: Db, token: string, now = Date.now()) {
  const [row] = await db
    .select({ email: teamEmailInvitations.email, teamName: teams.name, inviterName: users.fullName })
    .from(teamEmailInvitations)
    .innerJoin(teams, eq(teams.id, teamEmailInvitations.teamId))
    .leftJoin(users, eq(users.id, teamEmailInvitations.invitedBy))
    .where(and(eq(teamEmailInvitations.tokenHash, tokenHashOf(token)), pendingEmailInvitation(now)))
    .limit(1);
  return row;
}

/**
 * Registration through an invitation's link spends it (single-use: the row is deleted). The new
 * account joins the team at once when it registered with the invited address (the link was
 * mailed there, so holding it and the address is the answer the invitation asked for); with
 * another address it is invited, and answers on its dashboard like anyone invited. A link that
 * no longer works changes nothing: the account is made all the same.
 */
export async function joinBySignUpToken(tx: Tx, user: UserRow, token: string, now = Date.now()): Promise<void> {
  const [found] = await tx
    .select({ teamId: teamEmailInvitations.teamId })
    .from(teamEmailInvitations)
    .where(and(eq(teamEmailInvitations.tokenHash, tokenHashOf(token)), pendingEmailInvitation(now)))
    .limit(1);
  if (!found) return;
  await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, found.teamId)).for("update");
  const [spent] = await tx
    .delete(teamEmailInvitations)
    .where(and(eq(teamEmailInvitations.tokenHash, tokenHashOf(token)), pendingEmailInvitation(now)))
    .returning();
  if (!spent) return;
  const joins = spent.email === user.email;
  await tx
    .insert(teamMembers)
    .values({
      teamId: spent.teamId,
      userId: user.id,
      role: spent.role,
      status: joins ? "active" : "invited",
      invitedBy: spent.invitedBy,
      acceptedAt: joins ? new Date(now) : null,
      expiresAt: joins ? null : spent.expiresAt,
    })
    .onConflictDoNothing();
}
