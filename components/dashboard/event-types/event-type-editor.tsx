"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { LoadError, Loading } from "@/components/dashboard/query-state";
import { CopyButton } from "@/components/ui/copy-button";
import { eventTypesQuery } from "@/lib/browser/api-client/event-types";
import { EventTypeForm } from "./event-type-form";
import { homeOf, OWNER_WORDS, type EditorOwner, type OwnerRef } from "./owner";
import { TeamBackLink, WithOwner } from "./owner-gate";
import { OwnEventTypeTools } from "./own-tools";
import { OneTimeLinks } from "./one-time-links";

// The event-type pages, the host's own (/dashboard/event-types/…) and a team's
// (/dashboard/teams/{id}/event-types/…): one editor, entered with the owner.

function EditorHeading({ owner, title, children }: { owner: EditorOwner; title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col gap-2">
      {owner.kind === "team" && <TeamBackLink owner={owner} />}
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      {children}
    </div>
  );
}

function NewEventType({ owner }: { owner: EditorOwner }) {
  const { newHeading, newIntro } = OWNER_WORDS[owner.kind];
  return (
    <>
      <EditorHeading owner={owner} title={newHeading}>
        {newIntro && <p className="text-slate-600">{newIntro}</p>}
      </EditorHeading>
      <EventTypeForm owner={owner} />
    </>
  );
}

function EditEventType({ owner, id }: { owner: EditorOwner; id: string }) {
  const eventTypes = useQuery(eventTypesQuery(owner));
  if (eventTypes.isPending) return <Loading>Loading the event type…</Loading>;
  if (eventTypes.isError) return <LoadError what="the event type" error={eventTypes.error} onRetry={() => void eventTypes.refetch()} />;
  const eventType = eventTypes.data.find((e) => e.id === id);
  if (!eventType) {
    const home = homeOf(owner);
    return (
      <>
        <h1 className="text-2xl font-semibold tracking-tight">Event type not found</h1>
        <p className="text-slate-600">
          It may have been deleted.{" "}
          <Link href={home.href} className="text-blue-700 underline">
            Back to {home.name}
          </Link>
        </p>
      </>
    );
  }
  return (
    <>
      <EditorHeading owner={owner} title={eventType.title}>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <a href={eventType.publicUrl} target="_blank" rel="noreferrer" className="break-all text-blue-700 underline">
            {eventType.publicUrl}
          </a>
          <CopyButton text={eventType.publicUrl} />
        </div>
      </EditorHeading>
      {/* The settings first: they are what the page is for; the tools work on what is saved. */}
      <EventTypeForm owner={owner} eventType={eventType} />
      <OneTimeLinks owner={owner.kind === "me" ? owner : { kind: "team", teamId: owner.teamId }} eventTypeId={eventType.id} isActive={eventType.isActive} />
      {owner.kind === "me" && <OwnEventTypeTools eventType={eventType} />}
    </>
  );
}

/** A new event type (no `eventTypeId`) or a stored one, of the host or of a team the host owns. */
export function EventTypeEditor({ owner, eventTypeId }: { owner: OwnerRef; eventTypeId?: string }) {
  return <WithOwner owner={owner}>{(editorOwner) => (eventTypeId ? <EditEventType owner={editorOwner} id={eventTypeId} /> : <NewEventType owner={editorOwner} />)}</WithOwner>;
}
