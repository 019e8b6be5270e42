"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import {
  calendarKeys,
  deleteConnection,
  oauthAuthorizeUrl,
  syncConnection,
  updateConnectionCalendars,
  type CalendarConnectionDto,
  type ConnectedCalendarDto,
} from "@/lib/browser/api-client/calendars";
import { brokenSinceWords, busyAsOfWords, checkedPhrase, connectionBrand, fullDate, STATUS, statusExplanation } from "./calendar-words";

/** The write target's choice, made on the page: one radio across every connection. */
export type WriteTargetChoice = {
  /** The calendar new bookings go to (the one being chosen while that is saved), or null. */
  calendarId: string | null;
  /** The calendar whose choice is being saved. */
  savingId: string | null;
  choose: (connectionId: string, calendarId: string) => void;
};

function CalendarRow({ connectionId, calendar, target }: { connectionId: string; calendar: ConnectedCalendarDto; target: WriteTargetChoice }) {
  const queryClient = useQueryClient();
  const nameId = useId();
  const conflicts = useMutation<CalendarConnectionDto, ApiError, boolean>({
    mutationFn: (checkConflicts) => updateConnectionCalendars(connectionId, [{ id: calendar.id, checkConflicts }]),
    // Pending until the list is read again, so the box never flips back for a moment.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: calendarKeys.all }),
    // Quick clicks are saved in order: the last one wins.
    scope: { id: `calendar-conflicts-${calendar.id}` },
  });
  // Set in the click itself: TanStack Query reports the pending mutation a tick later, and a
  // controlled box would show the old value until then.
  const [clicked, setClicked] = useState<boolean | null>(null);
  const checked = clicked ?? (conflicts.isPending ? Boolean(conflicts.variables) : calendar.checkConflicts);
  const saving = conflicts.isPending || target.savingId === calendar.id;
  return (
    <li className="py-3 first:pt-0 last:pb-0">
      <div role="group" aria-labelledby={nameId} className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
        <div className="flex min-w-0 flex-wrap items-baseline gap-x-2">
          <p id={nameId} className="min-w-0 font-medium break-words">
            {calendar.name}
          </p>
          {calendar.readOnly && <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700">Read only</span>}
          <span aria-live="polite" className="text-sm text-slate-500">
            {saving ? "Saving…" : ""}
          </span>
        </div>
        <div className="flex flex-wrap items-center gap-x-5 gap-y-2 text-sm">
          <label className="flex cursor-pointer items-center gap-2">
            <input
              type="checkbox"
              className="size-4 accent-blue-600"
              checked={checked}
              onChange={(e) => {
                setClicked(e.target.checked);
                conflicts.mutate(e.target.checked, { onSettled: () => setClicked(null) });
              }}
            />
            Check for conflicts
          </label>
          {/* A calendar the account can only read cannot take bookings (the API refuses it too). */}
          <label className={`flex items-center gap-2 ${calendar.readOnly ? "cursor-not-allowed text-slate-500" : "cursor-pointer"}`}>
            <input
              type="radio"
              name="calendar-write-target"
              className="size-4 accent-blue-600"
              checked={target.calendarId === calendar.id}
              disabled={calendar.readOnly}
              onChange={() => target.choose(connectionId, calendar.id)}
            />
            Add new bookings here
          </label>
        </div>
      </div>
      {conflicts.isError && (
        <Alert tone="error" className="mt-2 text-sm">
          Conflict checking for {calendar.name} was not changed. {conflicts.error.message}
        </Alert>
      )}
    </li>
  );
}

/** One connected account: its state, its calendars with their two choices, sync, reconnect, disconnect. */
export function ConnectionCard({
  connection,
  now,
  zone,
  target,
  targetError,
  onReconnectApple,
  onDisconnected,
}: {
  connection: CalendarConnectionDto;
  now: number;
  /** The host's zone: times read the same in the first HTML and in the browser. */
  zone: string;
  target: WriteTargetChoice;
  /** Why choosing a calendar of this connection for new bookings failed. */
  targetError?: string;
  onReconnectApple: (appleId: string) => void;
  /** After the card is gone: the focus goes somewhere that still exists. */
  onDisconnected: () => void;
}) {
  const queryClient = useQueryClient();
  const headingId = useId();
  const emailId = useId();
  const [confirmDisconnect, setConfirmDisconnect] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: calendarKeys.all });
  const sync = useMutation<CalendarConnectionDto, ApiError>({ mutationFn: () => syncConnection(connection.id), onSuccess: () => refresh() });
  const remove = useMutation<undefined, ApiError>({
    mutationFn: () => deleteConnection(connection.id),
    onSuccess: () => {
      onDisconnected();
      return refresh();
    },
  });
  const brand = connectionBrand(connection);
  const status = STATUS[connection.status];
  const explanation = statusExplanation(connection);
  const holdsTarget = connection.calendars.some((c) => c.writeTarget);
  return (
    <li>
      <article aria-labelledby={`${headingId} ${emailId}`} className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:p-5">
        <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
          <div className="min-w-0">
            <h3 id={headingId} className="font-semibold">
              {brand}
            </h3>
            <p id={emailId} className="text-sm break-all text-slate-600">
              {connection.email}
            </p>
          </div>
          <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-sm font-medium ${status.className}`}>{status.label}</span>
        </div>

        <p className="text-sm text-slate-600">
          {connection.busyAsOf ? (
            <time dateTime={connection.busyAsOf} title={`Busy times last matched this calendar on ${fullDate(connection.busyAsOf, zone)}`}>
              {checkedPhrase(connection.busyAsOf, now, zone)}
            </time>
          ) : (
            checkedPhrase(null, now, zone)
          )}
        </p>

        {explanation && (
          <Alert tone="warning" className="text-sm">
            <p>{explanation}</p>
            <p className="mt-1">
              {brokenSinceWords(connection, zone)} {busyAsOfWords(connection.busyAsOf, zone)} Until it syncs again, guests may book over events added since.
            </p>
            {connection.lastError && <p className="mt-1 break-words text-amber-800">Details: {connection.lastError}</p>}
          </Alert>
        )}

        {connection.calendars.length === 0 ? (
          <p className="text-sm text-slate-600">No calendars were found in this account.</p>
        ) : (
          <ul aria-label={`Calendars in ${brand} ${connection.email}`} className="flex flex-col divide-y divide-slate-100 rounded-md border border-slate-200 px-3 py-3 sm:px-4">
            {connection.calendars.map((c) => (
              <CalendarRow key={c.id} connectionId={connection.id} calendar={c} target={target} />
            ))}
          </ul>
        )}

        <div aria-live="polite" className="flex flex-col gap-2 empty:-mt-4">
          {targetError && <Alert tone="error">New bookings still go where they went before. {targetError}</Alert>}
          {sync.isError && <Alert tone="error">The sync did not run. {sync.error.message}</Alert>}
          {sync.isSuccess && sync.data.status === "connected" && <Alert tone="success">Synced. Your busy times are up to date.</Alert>}
        </div>

        <div className="flex flex-wrap gap-2">
          {connection.status === "reauth_required" &&
            (connection.provider === "provider_c" ? (
              <Button size="sm" onClick={() => onReconnectApple(connection.email)}>
                Reconnect
              </Button>
            ) : (
              <a href={oauthAuthorizeUrl(connection.provider)} className={buttonClass("primary", "sm")}>
                Reconnect
              </a>
            ))}
          <Button variant="secondary" size="sm" disabled={sync.isPending} onClick={() => sync.mutate()}>
            {sync.isPending ? "Syncing…" : "Sync now"}
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setConfirmDisconnect(true)}>
            Disconnect
          </Button>
        </div>

        <ConfirmDialog
          open={confirmDisconnect}
          title={`Disconnect ${brand}?`}
          confirmLabel="Disconnect"
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
          onClose={() => setConfirmDisconnect(false)}
        >
          <p>
            The busy times of <span className="break-all">{connection.email}</span> stop counting, and new bookings are no longer added to its calendars.
            Bookings already in them stay there.
          </p>
          {holdsTarget && <p className="mt-2">New bookings will not be added to any calendar until you choose another one.</p>}
          {remove.isError && (
            <Alert tone="error" className="mt-3">
              {remove.error.message}
            </Alert>
          )}
        </ConfirmDialog>
      </article>
    </li>
  );
}
