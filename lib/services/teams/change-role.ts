import "server-only";
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { teamMembers, type UserRow } from "@/db/schema";
import type { TeamMemberView } from "@/lib/dto";
import { AppError, notFound } from "@/lib/errors";
import type { UpdateMemberBody } from "@/lib/schemas/team";
import { activeOwnerCount, memberView, requireOwner, writeTeam } from "./store";

/** Makes a member an owner or an owner a member (owners only); the last active owner stays one (409). */
export async function changeMemberRole(
  db: Db,
  user: UserRow,
  teamId: string,
  userId: string,
  input: z.output<typeof UpdateMemberBody>,
): Promise<TeamMemberView> {
  return writeTeam(db, user, teamId, async (tx, membership) => {
    requireOwner(membership);
    const mine = and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId));
    const [target] = await tx.select().from(teamMembers).where(mine).limit(1);
    if (!target) throw notFound("Member");
    if (target.role === "owner" && input.role !== "owner" && target.status === "active" && (await activeOwnerCount(tx, teamId)) <= 1) {
      throw new AppError("conflict", "This is the team's only owner: make another member an owner first");
    }
    if (target.role !== input.role) await tx.update(teamMembers).set({ role: input.role }).where(mine);
    return memberView(tx, teamId, userId);
  });
}
