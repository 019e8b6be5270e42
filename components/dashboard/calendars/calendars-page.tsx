"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { LoadError, Loading } from "@/components/dashboard/query-state";
import { Alert } from "@/components/ui/alert";
import { useFocusAfterRender } from "@/components/ui/use-focus-after-render";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import { calendarConnectionsQuery, calendarKeys, updateConnectionCalendars, type CalendarConnectionDto } from "@/lib/browser/api-client/calendars";
import { meQuery } from "@/lib/browser/api-client/account";
import { flagMessage } from "./calendar-words";
import { APPLE_FORM_ID, ConnectCalendar } from "./connect-calendar";
import { ConnectionCard, type WriteTargetChoice } from "./connection-card";

/** The time "Checked 20 seconds ago" is counted from, moving on by itself. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

type Target = { connectionId: string; calendarId: string };

/**
 * The host's external calendars: connect Google, Microsoft or Apple iCloud; per calendar, whether
 * its busy times count and whether new bookings are added to it (one calendar across all);
 * sync now, reconnect, disconnect. `flags` are what the OAuth callback sent the browser back with.
 */
export function CalendarsPage({ flags }: { flags: { connected?: string; error?: string } }) {
  const queryClient = useQueryClient();
  // Background syncs change status and "last synced": the list is read again now and then.
  const connections = useQuery({ ...calendarConnectionsQuery(), refetchInterval: 60_000 });
  const now = useNow(5_000);
  // Dates in the host's zone (prefetched with the page): the same in the first HTML and the browser.
  const zone = useQuery(meQuery()).data?.timezone ?? "UTC";
  const [appleOpen, setAppleOpen] = useState(false);
  const [appleId, setAppleId] = useState("");
  const focusSoon = useFocusAfterRender();
  const headingRef = useRef<HTMLHeadingElement>(null);
  // A disconnected card takes the focus with it: once it is gone, the list's heading has it.
  const disconnected = useRef<string | null>(null);
  const [flag] = useState(() => flagMessage(flags));

  // The flag is said once: a reload or a bookmark does not repeat it.
  useEffect(() => {
    if (flags.connected || flags.error) window.history.replaceState(window.history.state, "", window.location.pathname);
  }, [flags.connected, flags.error]);

  const target = useMutation<CalendarConnectionDto, ApiError, Target>({
    mutationFn: ({ connectionId, calendarId }) => updateConnectionCalendars(connectionId, [{ id: calendarId, writeTarget: true }]),
    // Choosing one clears every other (in all connections): the whole list is read again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: calendarKeys.all }),
    scope: { id: "calendar-write-target" },
  });
  const list = connections.data ?? [];
  const stored = list.flatMap((c) => c.calendars).find((c) => c.writeTarget)?.id ?? null;
  // The choice shows from the click itself, before TanStack Query reports the mutation (a tick later).
  const [chosen, setChosen] = useState<string | null>(null);
  const choice: WriteTargetChoice = {
    calendarId: chosen ?? (target.isPending ? target.variables.calendarId : stored),
    savingId: chosen ?? (target.isPending ? target.variables.calendarId : null),
    choose: (connectionId, calendarId) => {
      setChosen(calendarId);
      target.mutate({ connectionId, calendarId }, { onSettled: () => setChosen(null) });
    },
  };

  useEffect(() => {
    if (disconnected.current === null || list.some((c) => c.id === disconnected.current)) return;
    disconnected.current = null;
    headingRef.current?.focus();
  });

  function reconnectApple(email: string) {
    setAppleId(email);
    setAppleOpen(true);
    focusSoon(() => document.querySelector<HTMLElement>(`#${APPLE_FORM_ID} input[type="password"]`));
  }

  return (
    <>
      <p className="text-slate-600">
        Connected calendars count as busy time, so guests cannot book you when you already have plans, and one of them can receive your new bookings.
      </p>
      {flag && (
        <Alert tone={flag.tone} className="font-medium">
          {flag.text}
        </Alert>
      )}
      <ConnectCalendar appleOpen={appleOpen} onAppleOpenChange={setAppleOpen} appleId={appleId} onAppleIdChange={setAppleId} />
      <section aria-labelledby="calendars-heading" className="flex flex-col gap-3">
        <h2 id="calendars-heading" ref={headingRef} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
          Your calendars
        </h2>
        {connections.isPending ? (
          <Loading>Loading your calendars…</Loading>
        ) : connections.isError ? (
          <LoadError what="your calendars" error={connections.error} onRetry={() => void connections.refetch()} />
        ) : list.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">
            No calendars connected yet. Connect one above, and the times you are busy there are no longer offered to guests.
          </p>
        ) : (
          <>
            {choice.calendarId === null && (
              <p className="text-sm text-slate-600">New bookings are not added to any of your calendars. Choose “Add new bookings here” on one to have them added.</p>
            )}
            <ul className="flex flex-col gap-3">
              {list.map((c) => (
                <ConnectionCard
                  key={c.id}
                  connection={c}
                  now={now}
                  zone={zone}
                  target={choice}
                  targetError={target.isError && target.variables.connectionId === c.id ? target.error.message : undefined}
                  onReconnectApple={reconnectApple}
                  onDisconnected={() => (disconnected.current = c.id)}
                />
              ))}
            </ul>
          </>
        )}
      </section>
    </>
  );
}
