"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { EventTypeForm } from "@/components/dashboard/event-types/event-type-form";
import { LoadError, Loading } from "@/components/dashboard/query-state";
import { Alert } from "@/components/ui/alert";
import { CopyButton } from "@/components/ui/copy-button";
import { isOwner, type TeamDto } from "@/lib/browser/api-client/teams";
import { eventTypesQuery } from "@/lib/browser/api-client/event-types";
import { WithTeam } from "./team-page";

const back = (team: TeamDto) => (
  <Link href={`/dashboard/teams/${team.id}`} className="self-start text-sm text-blue-700 underline">
    ← {team.name}
  </Link>
);

function OwnersOnly({ team }: { team: TeamDto }) {
  return (
    <>
      {back(team)}
      <Alert tone="info">Only the team&apos;s owners change its event types.</Alert>
    </>
  );
}

function Editor({ team, eventTypeId, myUserId }: { team: TeamDto; eventTypeId: string; myUserId: string }) {
  const eventTypes = useQuery(eventTypesQuery({ kind: "team", teamId: team.id }));
  if (!isOwner(team, myUserId)) return <OwnersOnly team={team} />;
  if (eventTypes.isPending) return <Loading>Loading the event type…</Loading>;
  if (eventTypes.isError) return <LoadError what="the event type" error={eventTypes.error} onRetry={() => void eventTypes.refetch()} />;
  const eventType = eventTypes.data.find((e) => e.id === eventTypeId);
  if (!eventType) {
    return (
      <>
        <h1 className="text-2xl font-semibold tracking-tight">Event type not found</h1>
        <p className="text-slate-600">
          It may have been deleted.{" "}
          <Link href={`/dashboard/teams/${team.id}`} className="text-blue-700 underline">
            Back to {team.name}
          </Link>
        </p>
      </>
    );
  }
  return (
    <>
      <div className="flex flex-col gap-2">
        {back(team)}
        <h1 className="text-2xl font-semibold tracking-tight">{eventType.title}</h1>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <a href={eventType.publicUrl} target="_blank" rel="noreferrer" className="break-all text-blue-700 underline">
            {eventType.publicUrl}
          </a>
          <CopyButton text={eventType.publicUrl} />
        </div>
      </div>
      <EventTypeForm eventType={eventType} team={team} />
    </>
  );
}

/** Edit a team event type (owners). */
export function EditTeamEventType({ teamId, eventTypeId, myUserId }: { teamId: string; eventTypeId: string; myUserId: string }) {
  return <WithTeam teamId={teamId}>{(team) => <Editor team={team} eventTypeId={eventTypeId} myUserId={myUserId} />}</WithTeam>;
}

/** A new team event type (owners). */
export function NewTeamEventType({ teamId, myUserId }: { teamId: string; myUserId: string }) {
  return (
    <WithTeam teamId={teamId}>
      {(team) =>
        isOwner(team, myUserId) ? (
          <>
            <div className="flex flex-col gap-2">
              {back(team)}
              <h1 className="text-2xl font-semibold tracking-tight">New team event type</h1>
              <p className="text-slate-600">Guests book it from the team&apos;s page; the hosts you choose below take the bookings.</p>
            </div>
            <EventTypeForm team={team} />
          </>
        ) : (
          <OwnersOnly team={team} />
        )
      }
    </WithTeam>
  );
}
