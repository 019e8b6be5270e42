"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { LoadError, Loading } from "@/components/dashboard/query-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { inputClass } from "@/components/ui/field";
import { meQuery } from "@/lib/browser/api-client/account";
import type { EventTypeOwner } from "@/lib/browser/api-client/event-types";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import { createOneTimeLink, deleteOneTimeLink, oneTimeLinkKeys, oneTimeLinksQuery, type CreatedOneTimeLinkDto, type OneTimeLinkDto } from "@/lib/browser/api-client/one-time-links";
import { momentWhen } from "@/lib/dashboard/when";

// One-time links (decisions §21): an address that books this event type once, for a guest the
// host chooses, also while the event type is switched off. The address is shown once, when made
// (only its hash is kept); the list shows the links that can still book.

const EXPIRY = [
  { days: 1, label: "1 day" },
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
];

const useWhen = () => {
  const zone = useQuery(meQuery()).data?.timezone ?? "UTC";
  return (iso: string) => momentWhen(iso, zone);
};

function LinkRow({ owner, eventTypeId, link }: { owner: EventTypeOwner; eventTypeId: string; link: OneTimeLinkDto }) {
  const when = useWhen();
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState(false);
  const remove = useMutation<unknown, ApiError>({
    mutationFn: () => deleteOneTimeLink(owner, eventTypeId, link.id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: oneTimeLinkKeys.list(owner, eventTypeId) }),
  });
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 flex-col gap-0.5 text-sm">
        <span className="font-medium text-slate-800">Made {when(link.createdAt)}</span>
        <span className="text-slate-600">Expires {when(link.expiresAt)}</span>
        {remove.isError && <Alert tone="error">{remove.error.message}</Alert>}
      </div>
      <Button variant="secondary" size="sm" onClick={() => setConfirm(true)} className="self-start sm:self-center">
        Delete
      </Button>
      <ConfirmDialog open={confirm} title="Delete this link?" confirmLabel="Delete link" pending={remove.isPending} onConfirm={() => remove.mutate()} onClose={() => setConfirm(false)}>
        <p>Whoever has it can no longer book with it: the page will say the link was withdrawn. You can make a new one.</p>
      </ConfirmDialog>
    </li>
  );
}

/** The event type's one-time links: make one (its address shown once, with Copy), list and delete those that can still book. */
export function OneTimeLinks({ owner, eventTypeId, isActive }: { owner: EventTypeOwner; eventTypeId: string; isActive: boolean }) {
  const headingId = useId();
  const queryClient = useQueryClient();
  const when = useWhen();
  const links = useQuery(oneTimeLinksQuery(owner, eventTypeId));
  const [days, setDays] = useState(7);
  const [made, setMade] = useState<CreatedOneTimeLinkDto | null>(null);
  const create = useMutation<CreatedOneTimeLinkDto, ApiError, number>({
    mutationFn: (expiresInDays) => createOneTimeLink(owner, eventTypeId, expiresInDays),
    onSuccess: (created) => {
      setMade(created);
      void queryClient.invalidateQueries({ queryKey: oneTimeLinkKeys.list(owner, eventTypeId) });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(days);
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-5">
      <h2 id={headingId} className="text-lg font-semibold">
        One-time links
      </h2>
      <p className="text-sm text-slate-600">
        A link that books this event type once, for someone you choose. A one-time link works even when the event type is hidden from your public page
        {isActive ? "" : " (as it is now)"}.
      </p>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Expires after
          <select value={days} onChange={(e) => setDays(Number(e.target.value))} className={inputClass}>
            {EXPIRY.map((o) => (
              <option key={o.days} value={o.days}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" variant="secondary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create link"}
        </Button>
      </form>
      <div aria-live="polite">
        {create.isError && <Alert tone="error">{create.error.message}</Alert>}
        {made && (
          <Alert tone="success">
            <p className="font-medium">New link, valid until {when(made.expiresAt)}. Copy it now: it is shown only once.</p>
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <code data-testid="one-time-link-url" className="min-w-0 break-all rounded bg-white px-2 py-1 text-xs text-slate-800">
                {made.url}
              </code>
              <CopyButton text={made.url} />
            </div>
          </Alert>
        )}
      </div>
      {links.isPending && <Loading>Loading the links…</Loading>}
      {links.isError && <LoadError what="the links" error={links.error} onRetry={() => void links.refetch()} />}
      {links.data &&
        (links.data.length === 0 ? (
          <p className="text-sm text-slate-600">No unused links. Links that were used, deleted or have expired are not listed.</p>
        ) : (
          <div className="flex flex-col">
            <h3 className="text-sm font-medium text-slate-800">Not used yet</h3>
            <ul className="divide-y divide-slate-100">
              {links.data.map((link) => (
                <LinkRow key={link.id} owner={owner} eventTypeId={eventTypeId} link={link} />
              ))}
            </ul>
          </div>
        ))}
    </section>
  );
}
