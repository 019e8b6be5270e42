"use client";

import { awaitsMeetingLink } from "@/lib/meeting-location";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { buttonClass, Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import { meQuery } from "@/lib/browser/api-client/account";
import { bookingsQuery } from "@/lib/browser/api-client/bookings";
import { deleteEventType, eventTypeKeys, eventTypesQuery, updateEventType, type EventTypeDto, type EventTypeOwner } from "@/lib/browser/api-client/event-types";
import { moneyLocaleOf } from "@/lib/dashboard/payment-words";
import { formatMoney } from "@/lib/payments/money";

/** Whether guests can book an event type, the host's own or a team's. */
export function ActiveToggle({ owner, eventType }: { owner: EventTypeOwner; eventType: Pick<EventTypeDto, "id" | "title" | "isActive"> }) {
  const queryClient = useQueryClient();
  const toggle = useMutation<unknown, ApiError, boolean>({
    mutationFn: (isActive) => updateEventType(owner, eventType.id, { isActive }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: eventTypeKeys.list(owner) }),
  });
  const on = toggle.isPending ? Boolean(toggle.variables) : eventType.isActive;
  return (
    <div className="flex items-center gap-2">
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-label={`${eventType.title}: bookable`}
        disabled={toggle.isPending}
        onClick={() => toggle.mutate(!eventType.isActive)}
        className={`relative h-6 w-11 shrink-0 rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 ${on ? "bg-blue-600" : "bg-slate-300"}`}
      >
        <span className={`absolute top-0.5 left-0.5 h-5 w-5 rounded-full bg-white shadow transition-transform ${on ? "translate-x-5" : ""}`} />
      </button>
      <span className="text-sm text-slate-600">{on ? "On" : "Off"}</span>
      {toggle.isError && <span className="text-sm text-red-700">{toggle.error.message}</span>}
    </div>
  );
}

/** Delete, after saying what will happen: hidden when bookings refer to it, removed otherwise. */
function DeleteEventType({ eventType }: { eventType: EventTypeDto }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const usage = useQuery({ ...bookingsQuery({ eventTypeId: eventType.id, limit: 1 }), enabled: open });
  const remove = useMutation<EventTypeDto | undefined, ApiError>({
    mutationFn: () => deleteEventType({ kind: "me" }, eventType.id),
    onSuccess: () => {
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: eventTypeKeys.list({ kind: "me" }) });
    },
  });
  const count = usage.data?.pagination.total;
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)}>
        Delete
      </Button>
      <ConfirmDialog
        open={open}
        title={`Delete “${eventType.title}”?`}
        confirmLabel={count ? "Hide it" : "Delete it"}
        pending={remove.isPending || usage.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setOpen(false)}
      >
        {usage.isPending ? (
          <p>Checking its bookings…</p>
        ) : usage.isError ? (
          <p>We could not check its bookings; deleting will hide it if it has any, and remove it otherwise.</p>
        ) : count ? (
          <p>
            It has {count} booking{count === 1 ? "" : "s"}, so it will be <strong>hidden</strong>: guests can no longer book it, and its bookings stay as they
            are.
          </p>
        ) : (
          <p>
            It has no bookings, so it will be <strong>removed</strong> for good.
          </p>
        )}
        {remove.isError && <Alert tone="error" className="mt-3">{remove.error.message}</Alert>}
      </ConfirmDialog>
    </>
  );
}

export function EventTypeList() {
  const eventTypes = useQuery(eventTypesQuery({ kind: "me" }));
  const locale = moneyLocaleOf(useQuery(meQuery()).data?.language);
  if (eventTypes.isPending) return <p className="text-slate-500">Loading your event types…</p>;
  if (eventTypes.isError) return <Alert tone="error">{eventTypes.error.message}</Alert>;
  if (eventTypes.data.length === 0) {
    return (
      <div className="flex flex-col items-start gap-3 rounded-lg border border-dashed border-slate-300 bg-white p-6">
        <p className="text-slate-700">You have no event types yet. Create one, then share its link with guests.</p>
        <Link href="/dashboard/event-types/new" className={buttonClass()}>
          New event type
        </Link>
      </div>
    );
  }
  return (
    <ul className="flex flex-col gap-3">
      {eventTypes.data.map((e) => (
        <li key={e.id} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex min-w-0 items-start gap-3">
            <span aria-hidden="true" className="mt-1.5 h-3 w-3 shrink-0 rounded-full" style={{ backgroundColor: e.color }} />
            <div className="flex min-w-0 flex-col gap-1">
              <Link href={`/dashboard/event-types/${e.id}`} className="font-medium text-slate-900 hover:underline">
                {e.title}
              </Link>
              <span className="text-sm text-slate-600">
                {e.durationMinutes} min{e.location ? ` · ${awaitsMeetingLink(e.location) ? "Video call" : e.location}` : ""}
                {e.price ? ` · ${formatMoney(e.price.amount, e.price.currency, locale)}` : ""}
                {e.isActive ? "" : " · hidden from guests"}
              </span>
              <a href={e.publicUrl} target="_blank" rel="noreferrer" className="truncate text-sm text-blue-700 underline">
                {e.publicUrl.replace(/^https?:\/\//, "")}
              </a>
            </div>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <ActiveToggle owner={{ kind: "me" }} eventType={e} />
            <CopyButton text={e.publicUrl} />
            <Link href={`/dashboard/event-types/${e.id}`} className={buttonClass("secondary", "sm")}>
              Edit
            </Link>
            <DeleteEventType eventType={e} />
          </div>
        </li>
      ))}
    </ul>
  );
}
