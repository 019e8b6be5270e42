"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { LoadError, Loading } from "@/components/dashboard/query-state";
import { Button, buttonClass } from "@/components/ui/button";
import { invitationsQuery, myMembership, teamsQuery, TEAMS_PAGE_SIZE, type TeamDto } from "@/lib/browser/api-client/teams";
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

/** Previous and next, when there is more than one page. */
function Pager({ label, page, pages, onPage }: { label: string; page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-2">
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className="text-sm text-slate-600">
        Page {page} of {pages}
      </span>
      <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

const pageCount = (p: { total: number; limit: number }) => Math.max(1, Math.ceil(p.total / p.limit));

/** Steps back to the last page when the list shrinks below the one shown (an answered invitation). */
function useLastPageAtMost(page: number, setPage: (page: number) => void, total: number | undefined) {
  useEffect(() => {
    if (total !== undefined && total > 0 && page > pageCount({ total, limit: TEAMS_PAGE_SIZE })) setPage(pageCount({ total, limit: TEAMS_PAGE_SIZE }));
  }, [page, setPage, total]);
}

/**
 * Invitations waiting for an answer, apart from the teams the caller is in: the team's name as
 * plain text (anyone may name a team anything, and invite anyone), who sent it, accept or decline.
 */
function PendingInvitations({ myUserId }: { myUserId: string }) {
  const [page, setPage] = useState(1);
  const invitations = useQuery({ ...invitationsQuery(page), placeholderData: keepPreviousData });
  useLastPageAtMost(page, setPage, invitations.data?.pagination.total);
  if (invitations.isPending) return <Loading>Loading your invitations…</Loading>;
  if (invitations.isError) return <LoadError what="your invitations" error={invitations.error} onRetry={() => void invitations.refetch()} />;
  const { data, pagination } = invitations.data;
  if (pagination.total === 0) return null;
  return (
    <section aria-labelledby="invitations-heading" className="flex flex-col gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4">
      <h2 id="invitations-heading" className="text-lg font-semibold text-amber-950">
        Pending invitations
      </h2>
      <p className="text-sm text-amber-950">Anyone can name a team anything and invite you to it. Accept only invitations from people you know.</p>
      <ul className="flex flex-col gap-3">
        {data.map((i) => (
          <li key={i.team.id} className="flex flex-col gap-3 rounded-md border border-amber-200 bg-white p-3 sm:flex-row sm:items-center sm:justify-between">
            <div className="flex min-w-0 flex-col gap-1">
              <p className="break-words">
                You are invited to join <span className="font-semibold">{i.team.name}</span>
                {i.role === "owner" ? " as an owner" : ""}.
              </p>
              <p className="text-sm break-words text-slate-600">
                {i.invitedBy ? `Invited by ${i.invitedBy.fullName} (@${i.invitedBy.username}).` : "Invited by someone whose account no longer exists."}
              </p>
            </div>
            <InvitationActions team={i.team} myUserId={myUserId} />
          </li>
        ))}
      </ul>
      <Pager label="Invitation pages" page={page} pages={pageCount(pagination)} onPage={setPage} />
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
  const [page, setPage] = useState(1);
  const teams = useQuery({ ...teamsQuery(page), placeholderData: keepPreviousData });
  useLastPageAtMost(page, setPage, teams.data?.pagination.total);
  return (
    <>
      <PendingInvitations myUserId={myUserId} />
      <section aria-labelledby="teams-heading" className="flex flex-col gap-3">
        <h2 id="teams-heading" className="text-lg font-semibold">
          Your teams
        </h2>
        {teams.isPending ? (
          <Loading>Loading your teams…</Loading>
        ) : teams.isError ? (
          <LoadError what="your teams" error={teams.error} onRetry={() => void teams.refetch()} />
        ) : teams.data.pagination.total === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">
            No teams yet — create one to share a round-robin or collective link.
          </p>
        ) : (
          <>
            <ul className="flex flex-col gap-3">
              {teams.data.data.map((t) => (
                <TeamCard key={t.id} team={t} myUserId={myUserId} appUrl={appUrl} />
              ))}
            </ul>
            <Pager label="Team pages" page={page} pages={pageCount(teams.data.pagination)} onPage={setPage} />
          </>
        )}
      </section>
      <CreateTeamForm appUrl={appUrl} />
    </>
  );
}
