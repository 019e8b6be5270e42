"use client";

import { useMutation } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import { createCalendarFeed } from "@/lib/browser/api-client/calendar-feed";

/** Subscribe any calendar app to your bookings: a secret feed URL, replaced on each request. */
export function CalendarFeed() {
  const feed = useMutation<{ url: string }, ApiError>({ mutationFn: createCalendarFeed });
  return (
    <section aria-labelledby="feed-heading" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="feed-heading" className="text-lg font-semibold">
        Your bookings in any calendar app
      </h2>
      <p className="text-sm text-slate-600">
        Subscribe Apple Calendar, Google Calendar or Outlook to a private link: new, moved and cancelled bookings show up there. A new link replaces the old one.
      </p>
      <div aria-live="polite" className="flex flex-col gap-2">
        {feed.data && (
          <div className="flex flex-wrap items-center gap-2">
            <code className="break-all rounded bg-slate-100 px-2 py-1 text-sm">{feed.data.url}</code>
            <CopyButton text={feed.data.url} />
          </div>
        )}
        {feed.isError && <Alert tone="error">{feed.error.message}</Alert>}
      </div>
      <Button variant="secondary" size="sm" className="self-start" disabled={feed.isPending} onClick={() => feed.mutate()}>
        {feed.data ? "Replace the link" : "Get a subscription link"}
      </Button>
    </section>
  );
}
