"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ActiveToggle } from "@/components/dashboard/event-types/event-type-list";
import { LoadError, Loading } from "@/components/dashboard/query-state";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import { deleteEventType, eventTypeKeys, eventTypesQuery, type TeamEventTypeDto } from "@/lib/browser/api-client/event-types";
import type { TeamDto } from "@/lib/browser/api-client/teams";
import { schedulingLabel } from "@/lib/forms/event-type-hosts";
import { meQuery } from "@/lib/browser/api-client/account";
import { moneyLocaleOf } from "@/lib/dashboard/payment-words";
import { formatMoney } from "@/lib/payments/money";

/** "Ada Lovelace and Grace Hopper": the hosts by name, in the team's order. */
export function hostNames(team: TeamDto, hostIds: string[]): string {
  const names = team.members.filter((m) => hostIds.includes(m.userId)).map((m) => m.fullName);
  if (names.length === 0) return "no hosts";
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

function DeleteTeamEventType({ team, eventType }: { team: TeamDto; eventType: TeamEventTypeDto }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const remove = useMutation<TeamEventTypeDto | undefined, ApiError>({
    mutationFn: () => deleteEventType({ kind: "team", teamId: team.id }, eventType.id),
    onSuccess: () => {
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: eventTypeKeys.list({ kind: "team", teamId: team.id }) });
    },
  });
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)} aria-label={`Delete ${eventType.title}`}>
        Delete
      </Button>
      <ConfirmDialog
        open={open}
        title={`Delete “${eventType.title}”?`}
        confirmLabel="Delete it"
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => {
          setOpen(false);
          remove.reset();
        }}
      >
        <p>Guests can no longer book it. Bookings already made stay as they are (with bookings, it is hidden rather than removed).</p>
        {remove.isError && (
          <Alert tone="error" className="mt-3">
            {remove.error.message}
          </Alert>
        )}
      </ConfirmDialog>
    </>
  );
}

function TeamEventTypeCard({ team, eventType: e, owner }: { team: TeamDto; eventType: TeamEventTypeDto; owner: boolean }) {
  const edit = `/dashboard/teams/${team.id}/event-types/${e.id}`;
  const locale = moneyLocaleOf(useQuery(meQuery()).data?.language);
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 items-start gap-3">
        <span aria-hidden="true" className="mt-1.5 h-3 w-3 shrink-0 rounded-full" style={{ backgroundColor: e.color }} />
        <div className="flex min-w-0 flex-col gap-1">
          {owner ? (
            <Link href={edit} className="font-medium text-slate-900 hover:underline">
              {e.title}
            </Link>
          ) : (
            <span className="font-medium text-slate-900">{e.title}</span>
          )}
          <span className="text-sm text-slate-600">
            {e.durationMinutes} min · {schedulingLabel(e.schedulingType)}
            {e.price ? ` · ${formatMoney(e.price.amount, e.price.currency, locale)}` : ""}
            {e.isActive ? "" : " · hidden from guests"}
          </span>
          <span className="text-sm text-slate-600">Hosts: {hostNames(team, e.hostIds)}</span>
          <a href={e.publicUrl} target="_blank" rel="noreferrer" className="truncate text-sm text-blue-700 underline">
            {e.publicUrl.replace(/^https?:\/\//, "")}
          </a>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {owner && <ActiveToggle owner={{ kind: "team", teamId: team.id }} eventType={e} />}
        <CopyButton text={e.publicUrl} />
        {owner && (
          <>
            <Link href={edit} className={buttonClass("secondary", "sm")} aria-label={`Edit ${e.title}`}>
              Edit
            </Link>
            <DeleteTeamEventType team={team} eventType={e} />
          </>
        )}
      </div>
    </li>
  );
}

/** The team's event types: what guests book at the team's link, each with its hosts. */
export function TeamEventTypes({ team, owner }: { team: TeamDto; owner: boolean }) {
  const eventTypes = useQuery(eventTypesQuery({ kind: "team", teamId: team.id }));
  const newHref = `/dashboard/teams/${team.id}/event-types/new`;
  return (
    <section aria-labelledby="team-event-types-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="team-event-types-heading" className="text-lg font-semibold">
          Event types
        </h2>
        {owner && (
          <Link href={newHref} className={buttonClass("primary", "sm")}>
            New team event type
          </Link>
        )}
      </div>
      {eventTypes.isPending ? (
        <Loading>Loading the team&apos;s event types…</Loading>
      ) : eventTypes.isError ? (
        <LoadError what="the team's event types" error={eventTypes.error} onRetry={() => void eventTypes.refetch()} />
      ) : eventTypes.data.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">
          {owner
            ? "No event types yet. Add one: round robin spreads bookings over the hosts, collective books them all together."
            : "No event types yet. The team's owners add them."}
        </p>
      ) : (
        <ul className="flex flex-col gap-3">
          {eventTypes.data.map((e) => (
            <TeamEventTypeCard key={e.id} team={team} eventType={e} owner={owner} />
          ))}
        </ul>
      )}
    </section>
  );
}
