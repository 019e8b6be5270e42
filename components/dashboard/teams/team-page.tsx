"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { ReactNode } from "react";
import { LoadError, Loading } from "@/components/dashboard/query-state";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { isOwner, myMembership, teamQuery, type TeamDto } from "@/lib/browser/api-client/teams";
import { InvitationActions } from "./invitation-actions";
import { RoleBadge } from "./badges";
import { TeamEventTypes } from "./team-event-types";
import { TeamLink } from "./team-link";
import { TeamMembers } from "./team-members";
import { TeamSettings } from "./team-settings";

/** The team of `teamId` (one the caller is in or invited to), with words for loading, failing and not finding it. */
export function WithTeam({ teamId, children }: { teamId: string; children: (team: TeamDto) => ReactNode }) {
  const query = useQuery(teamQuery(teamId));
  const missing = query.isError && query.error instanceof ApiError && query.error.status === 404;
  if (query.isPending) return <Loading>Loading the team…</Loading>;
  if (query.isError && !missing) return <LoadError what="the team" error={query.error} onRetry={() => void query.refetch()} />;
  const team = query.data;
  if (!team || missing) {
    return (
      <>
        <h1 className="text-2xl font-semibold tracking-tight">Team not found</h1>
        <p className="text-slate-600">
          It may have been deleted, or you are no longer a member.{" "}
          <Link href="/dashboard/teams" className="text-blue-700 underline">
            Back to your teams
          </Link>
        </p>
      </>
    );
  }
  return children(team);
}

function Team({ team, appUrl, myUserId }: { team: TeamDto; appUrl: string; myUserId: string }) {
  const router = useRouter();
  const me = myMembership(team, myUserId);
  const owner = isOwner(team, myUserId);
  return (
    <>
      <div className="flex flex-col gap-2">
        <Link href="/dashboard/teams" className="self-start text-sm text-blue-700 underline">
          ← All teams
        </Link>
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-semibold tracking-tight break-words">{team.name}</h1>
          {me?.status === "active" && <RoleBadge role={me.role} />}
        </div>
        {/* An invitation's team may be anyone's: its link is shown once the caller has joined. */}
        {me?.status === "active" && <TeamLink appUrl={appUrl} slug={team.slug} />}
        {me?.status === "active" && !owner && <p className="text-sm text-slate-600">You are a member: you host and see the team; its owners change it.</p>}
      </div>
      {me?.status === "invited" && (
        <section aria-labelledby="invitation-heading" className="flex flex-col gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4">
          <h2 id="invitation-heading" className="font-semibold text-amber-950">
            You are invited to join {team.name}
          </h2>
          <p className="text-sm text-amber-950">Once you accept, owners can make you a host of the team&apos;s event types, and their bookings count on your calendar.</p>
          <InvitationActions team={team} myUserId={myUserId} onDeclined={() => router.push("/dashboard/teams")} />
        </section>
      )}
      {/* An invited person sees who is in the team; its event types once they accept (the API says so too). */}
      {me?.status === "active" && <TeamEventTypes team={team} owner={owner} />}
      <TeamMembers team={team} myUserId={myUserId} owner={owner} />
      {owner && <TeamSettings team={team} appUrl={appUrl} />}
    </>
  );
}

/** One team: its event types, members and (for owners) its settings. */
export function TeamPage({ teamId, appUrl, myUserId }: { teamId: string; appUrl: string; myUserId: string }) {
  return <WithTeam teamId={teamId}>{(team) => <Team team={team} appUrl={appUrl} myUserId={myUserId} />}</WithTeam>;
}
