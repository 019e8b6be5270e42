"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { LoadError, Loading } from "@/components/dashboard/query-state";
import { buttonClass } from "@/components/ui/button";
import { myMembership, teamsQuery, type TeamDto } from "@/lib/browser/api-client/teams";
import { CreateTeamForm } from "./create-team-form";
import { InvitationActions } from "./invitation-actions";
import { RoleBadge } from "./badges";
import { TeamLink } from "./team-link";

const cardClass = "flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4";

const names = (team: TeamDto) => team.members.filter((m) => m.status === "active").map((m) => m.fullName);

/** "Ada Lovelace, Grace Hopper and 2 others". */
function peopleSentence(people: string[]): string {
  if (people.length === 0) return "No active members yet";
  if (people.length <= 3) return people.length === 1 ? people[0]! : `${people.slice(0, -1).join(", ")} and ${people.at(-1)}`;
  return `${people.slice(0, 2).join(", ")} and ${people.length - 2} others`;
}

function PendingInvitations({ teams, myUserId, appUrl }: { teams: TeamDto[]; myUserId: string; appUrl: string }) {
  return (
    <section aria-labelledby="invitations-heading" className="flex flex-col gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4">
      <h2 id="invitations-heading" className="text-lg font-semibold text-amber-950">
        Pending invitations
      </h2>
      <ul className="flex flex-col gap-3">
        {teams.map((t) => (
          <li key={t.id} className="flex flex-col gap-3 rounded-md border border-amber-200 bg-white p-3 sm:flex-row sm:items-center sm:justify-between">
            <div className="flex min-w-0 flex-col gap-1">
              <p>
                You are invited to join <span className="font-semibold">{t.name}</span>
                {myMembership(t, myUserId)?.role === "owner" ? " as an owner" : ""}.
              </p>
              <p className="text-sm text-slate-600">With {peopleSentence(names(t))}.</p>
              <TeamLink appUrl={appUrl} slug={t.slug} />
            </div>
            <InvitationActions team={t} myUserId={myUserId} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function TeamCard({ team, myUserId, appUrl }: { team: TeamDto; myUserId: string; appUrl: string }) {
  const me = myMembership(team, myUserId);
  const active = team.members.filter((m) => m.status === "active").length;
  const invited = team.members.length - active;
  return (
    <li className={cardClass}>
      <div className="flex flex-wrap items-center gap-2">
        <Link href={`/dashboard/teams/${team.id}`} className="text-lg font-medium text-slate-900 hover:underline">
          {team.name}
        </Link>
        {me && <RoleBadge role={me.role} />}
      </div>
      <p className="text-sm text-slate-600">
        {active} member{active === 1 ? "" : "s"}
        {invited > 0 ? ` · ${invited} invited` : ""} · {peopleSentence(names(team))}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <TeamLink appUrl={appUrl} slug={team.slug} />
        <Link href={`/dashboard/teams/${team.id}`} className={`${buttonClass("secondary", "sm")} self-start`} aria-label={`Open ${team.name}`}>
          Open
        </Link>
      </div>
    </li>
  );
}

/** The caller's teams: invitations to answer first, then the teams they belong to, then a new one. */
export function TeamsPage({ appUrl, myUserId }: { appUrl: string; myUserId: string }) {
  const teams = useQuery(teamsQuery());
  if (teams.isPending) return <Loading>Loading your teams…</Loading>;
  if (teams.isError) return <LoadError what="your teams" error={teams.error} onRetry={() => void teams.refetch()} />;
  const pending = teams.data.filter((t) => myMembership(t, myUserId)?.status === "invited");
  const mine = teams.data.filter((t) => myMembership(t, myUserId)?.status === "active");
  return (
    <>
      {pending.length > 0 && <PendingInvitations teams={pending} myUserId={myUserId} appUrl={appUrl} />}
      <section aria-labelledby="teams-heading" className="flex flex-col gap-3">
        <h2 id="teams-heading" className="text-lg font-semibold">
          Your teams
        </h2>
        {mine.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">
            No teams yet — create one to share a round-robin or collective link.
          </p>
        ) : (
          <ul className="flex flex-col gap-3">
            {mine.map((t) => (
              <TeamCard key={t.id} team={t} myUserId={myUserId} appUrl={appUrl} />
            ))}
          </ul>
        )}
      </section>
      <CreateTeamForm appUrl={appUrl} />
    </>
  );
}
