"use client";

import { useQuery } from "@tanstack/react-query";
import { CopyButton } from "@/components/ui/copy-button";
import { meQuery } from "@/lib/browser/api-client/account";
import type { EventTypeDto } from "@/lib/browser/api-client/event-types";
import { CheckATime } from "./check-a-time";

// After a stored event type's settings, on the host's own: checking why a time is or is not
// offered, and the snippet that puts its booking page on another site. They work on what is saved.

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

/** The host's own event type's tools, in the host's zone. */
export function OwnEventTypeTools({ eventType }: { eventType: EventTypeDto }) {
  const me = useQuery(meQuery());
  return (
    <>
      {me.data && <CheckATime eventTypeId={eventType.id} zone={me.data.timezone} />}
      <EmbedSnippet publicUrl={eventType.publicUrl} title={eventType.title} />
    </>
  );
}
