"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { WithTeam } from "@/components/dashboard/teams/team-page";
import { Alert } from "@/components/ui/alert";
import { isOwner } from "@/lib/browser/api-client/teams";
import type { EditorOwner, OwnerRef } from "./owner";

/** "← Sales": back to the team's page, above a team's event type. */
export function TeamBackLink({ owner }: { owner: Extract<EditorOwner, { kind: "team" }> }) {
  return (
    <Link href={`/dashboard/teams/${owner.teamId}`} className="self-start text-sm text-blue-700 underline">
      ← {owner.team.name}
    </Link>
  );
}

/**
 * The owner the editor works for: the host's own at once; a team once it is loaded, and only for
 * its owners (members read its event types on the team's page; the API would refuse a change).
 */
export function WithOwner({ owner, children }: { owner: OwnerRef; children: (owner: EditorOwner) => ReactNode }) {
  if (owner.kind === "me") return children({ kind: "me" });
  return (
    <WithTeam teamId={owner.teamId}>
      {(team) => {
        const teamOwner = { kind: "team", teamId: team.id, team } as const;
        if (isOwner(team, owner.myUserId)) return children(teamOwner);
        return (
          <>
            <TeamBackLink owner={teamOwner} />
            <Alert tone="info">Only the team&apos;s owners change its event types.</Alert>
          </>
        );
      }}
    </WithTeam>
  );
}
