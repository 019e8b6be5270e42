"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { EventTypeForm } from "./event-type-form";
import { Alert } from "@/components/ui/alert";
import { CopyButton } from "@/components/ui/copy-button";
import { eventTypesQuery } from "@/lib/browser/api-client/event-types";
import { meQuery } from "@/lib/browser/api-client/account";
import { CheckATime } from "./check-a-time";

/** The booking page in the host's own site: an iframe that may sit on any page. */
function EmbedSnippet({ publicUrl, title }: { publicUrl: string; title: string }) {
  const attribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const snippet = `<iframe src="${attribute(publicUrl)}?embed=1" title="${attribute(title)}" style="width:100%;min-height:720px;border:0"></iframe>`;
  return (
    <section aria-labelledby="embed-heading" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="embed-heading" className="text-lg font-semibold">
        Embed on your site
      </h2>
      <p className="text-sm text-slate-600">
        Paste this where guests should book. When a guest books, the page around it receives a message{" "}
        <code className="text-xs">{`{ type: "booking.created", bookingId, startTime }`}</code> (window &quot;message&quot; event). The guest&apos;s
        reschedule and cancel links open in a new tab.
      </p>
      {/* Focusable: a keyboard can scroll a snippet wider than the screen. */}
      <pre tabIndex={0} aria-label="Embed snippet" className="overflow-x-auto rounded bg-slate-100 p-3 text-xs focus-visible:outline-2 focus-visible:outline-blue-600">
        <code>{snippet}</code>
      </pre>
      <CopyButton text={snippet} label="Copy snippet" />
    </section>
  );
}

export function EditEventType({ id }: { id: string }) {
  const eventTypes = useQuery(eventTypesQuery({ kind: "me" }));
  const me = useQuery(meQuery());
  if (eventTypes.isPending) return <p className="text-slate-500">Loading the event type…</p>;
  if (eventTypes.isError) return <Alert tone="error">{eventTypes.error.message}</Alert>;
  const eventType = eventTypes.data.find((e) => e.id === id);
  if (!eventType) {
    return (
      <>
        <h1 className="text-2xl font-semibold tracking-tight">Event type not found</h1>
        <p className="text-slate-600">
          It may have been deleted. <Link href="/dashboard/event-types" className="text-blue-700 underline">Back to your event types</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">{eventType.title}</h1>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <a href={eventType.publicUrl} target="_blank" rel="noreferrer" className="break-all text-blue-700 underline">
            {eventType.publicUrl}
          </a>
          <CopyButton text={eventType.publicUrl} />
        </div>
      </div>
      {/* The settings first: they are what the page is for; the tools work on what is saved. */}
      <EventTypeForm eventType={eventType} />
      {me.data && <CheckATime eventTypeId={eventType.id} zone={me.data.timezone} />}
      <EmbedSnippet publicUrl={eventType.publicUrl} title={eventType.title} />
    </>
  );
}
