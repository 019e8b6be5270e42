"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import { meQuery } from "@/lib/browser/api-client/account";
import {
  deleteWebhook,
  deliveriesQuery,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  webhookKeys,
  webhooksQuery,
  type CreatedWebhookDto,
  type WebhookDto,
} from "@/lib/browser/api-client/webhooks";
import { momentWhen } from "@/lib/dashboard/when";
import { useEventTypeChoices, type EventTypeChoices } from "./event-type-choices";
import { WebhookForm } from "./webhook-form";

// Times in the host's zone (their profile), the same on the server and in the browser.
const useWhen = () => {
  const zone = useQuery(meQuery()).data?.timezone ?? "UTC";
  return (iso: string) => momentWhen(iso, zone);
};

/** A signing secret, shown once: the host copies it now or rotates for a new one later. */
function RevealedSecret({ secret, note }: { secret: string; note: string }) {
  return (
    <Alert tone="warning">
      <p className="font-medium">Copy the signing secret now: it is shown only once.</p>
      <p className="mt-1 text-sm">{note}</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code className="break-all rounded bg-white px-2 py-1 text-sm text-slate-900">{secret}</code>
        <CopyButton text={secret} label="Copy secret" />
      </div>
    </Alert>
  );
}

function Deliveries({ webhook }: { webhook: WebhookDto }) {
  const when = useWhen();
  const [page, setPage] = useState(1);
  const deliveries = useQuery({ ...deliveriesQuery(webhook.id, page), placeholderData: keepPreviousData, refetchInterval: 5_000 });
  if (deliveries.isPending) return <p className="text-sm text-slate-500">Loading deliveries…</p>;
  if (deliveries.isError) return <Alert tone="error">{deliveries.error.message}</Alert>;
  const { data, pagination } = deliveries.data;
  if (data.length === 0) return <p className="text-sm text-slate-600">Nothing sent yet. Send a test event, or wait for a booking.</p>;
  const pages = Math.max(1, Math.ceil(pagination.total / pagination.limit));
  return (
    <div className="flex flex-col gap-2">
      <div tabIndex={0} role="region" aria-label={`Deliveries to ${webhook.url}`} className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-blue-600">
        <table className="w-full min-w-[36rem] text-left text-sm">
          <caption className="sr-only">Delivery attempts to {webhook.url}, newest first</caption>
          <thead className="text-slate-500">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">When</th>
              <th scope="col" className="py-1 pr-3 font-medium">Event</th>
              <th scope="col" className="py-1 pr-3 font-medium">Attempt</th>
              <th scope="col" className="py-1 pr-3 font-medium">Result</th>
              <th scope="col" className="py-1 pr-3 font-medium">Next try</th>
            </tr>
          </thead>
          <tbody>
            {data.map((d) => (
              <tr key={d.id} className="border-t border-slate-100 align-top">
                <td className="py-1.5 pr-3">{when(d.createdAt)}</td>
                <td className="py-1.5 pr-3">
                  <code className="text-xs">{d.eventType}</code>
                </td>
                <td className="py-1.5 pr-3">{d.attempt}</td>
                <td className="py-1.5 pr-3">
                  <span className={d.status === "succeeded" ? "text-green-800" : "text-red-800"}>{d.status === "succeeded" ? "Delivered" : "Failed"}</span>
                  {d.responseStatus !== null && ` · HTTP ${d.responseStatus}`}
                  {d.durationMs !== null && ` · ${d.durationMs} ms`}
                  {d.error && <span className="block text-xs text-slate-500">{d.error}</span>}
                </td>
                <td className="py-1.5 pr-3">{d.nextRetryAt ? when(d.nextRetryAt) : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 && (
        <div className="flex items-center gap-2 text-sm">
          <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            Newer
          </Button>
          <span>
            Page {page} of {pages}
          </span>
          <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            Older
          </Button>
        </div>
      )}
    </div>
  );
}

/** What a webhook hears of: every event type, or the names of its own (one no longer offered is counted, not named). */
function heardOf(webhook: WebhookDto, choices: EventTypeChoices): string {
  if (webhook.eventTypeIds === null) return "All event types";
  if (choices.status !== "ready") return webhook.eventTypeIds.length === 1 ? "1 event type" : `${webhook.eventTypeIds.length} event types`;
  const names = webhook.eventTypeIds.flatMap((id) => choices.titles.get(id) ?? []);
  const gone = webhook.eventTypeIds.length - names.length;
  return [...names, ...(gone > 0 ? [gone === 1 ? "1 event type no longer yours" : `${gone} event types no longer yours`] : [])].join(", ");
}

function WebhookCard({ webhook, choices }: { webhook: WebhookDto; choices: EventTypeChoices }) {
  const when = useWhen();
  const [editing, setEditing] = useState(false);
  const queryClient = useQueryClient();
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
  const test = useMutation({ mutationFn: () => testWebhook(webhook.id), onSuccess: () => void queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(webhook.id) }) });
  const rotate = useMutation({ mutationFn: () => rotateWebhookSecret(webhook.id), onSuccess: () => void refresh() });
  const toggle = useMutation({ mutationFn: () => updateWebhook(webhook.id, { isActive: !webhook.isActive }), onSuccess: () => void refresh() });
  const remove = useMutation({ mutationFn: () => deleteWebhook(webhook.id), onSuccess: () => void refresh() });
  const failure = [test, rotate, toggle, remove].find((m) => m.isError)?.error as ApiError | undefined;
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-col gap-1">
        <p className="break-all font-medium">{webhook.url}</p>
        <p className="text-sm text-slate-600">
          {webhook.isActive ? "Active" : webhook.disabledReason ? `Turned off: ${webhook.disabledReason}` : "Paused"} · {webhook.events.join(", ")}
        </p>
        <p className="text-sm text-slate-600">For bookings of: {heardOf(webhook, choices)}</p>
        {webhook.previousSecretExpiresAt && <p className="text-sm text-slate-600">The previous secret still signs until {when(webhook.previousSecretExpiresAt)}.</p>}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" disabled={!webhook.isActive || test.isPending} onClick={() => test.mutate()}>
          {test.isPending ? "Sending…" : "Send a test event"}
        </Button>
        <Button variant="secondary" size="sm" onClick={() => setEditing((e) => !e)} aria-expanded={editing}>
          Edit
        </Button>
        <Button variant="secondary" size="sm" onClick={() => setShowDeliveries((s) => !s)} aria-expanded={showDeliveries}>
          Deliveries
        </Button>
        <Button variant="secondary" size="sm" disabled={toggle.isPending} onClick={() => toggle.mutate()}>
          {webhook.isActive ? "Pause" : "Turn on"}
        </Button>
        <Button variant="secondary" size="sm" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
          Rotate secret
        </Button>
        <Button variant="ghost" size="sm" onClick={() => setConfirmDelete(true)}>
          Delete
        </Button>
      </div>
      <div aria-live="polite">
        {test.isSuccess && <Alert tone="success">Test event queued; it appears under Deliveries in a moment.</Alert>}
        {rotate.data && <RevealedSecret secret={rotate.data.secret} note={`Deliveries are signed with both secrets until ${when(rotate.data.previousSecretExpiresAt)}: switch your endpoint to the new one before then.`} />}
        {failure && <Alert tone="error">{failure.message}</Alert>}
      </div>
      {/* The edit form waits for the event types: its ticks start from the webhook's list as the host may still choose it. */}
      {editing && (choices.status === "pending" ? <p className="text-sm text-slate-500">Loading your event types…</p> : <WebhookForm webhook={webhook} choices={choices} onDone={() => setEditing(false)} />)}
      {showDeliveries && <Deliveries webhook={webhook} />}
      <ConfirmDialog open={confirmDelete} title="Delete this endpoint?" confirmLabel="Delete endpoint" pending={remove.isPending} onConfirm={() => remove.mutate()} onClose={() => setConfirmDelete(false)}>
        <p className="break-all">{webhook.url} will get no more events, and its delivery log is removed.</p>
      </ConfirmDialog>
    </li>
  );
}

/** The host's webhook endpoints: add, reveal the secret once, edit, test, see deliveries, pause, rotate, delete. */
export function WebhooksPage({ myUserId }: { myUserId: string }) {
  const webhooks = useQuery(webhooksQuery());
  const choices = useEventTypeChoices(myUserId);
  const [created, setCreated] = useState<CreatedWebhookDto | null>(null);
  return (
    <>
      <p className="text-slate-600">
        We send a signed POST (Standard Webhooks: <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>) when a booking is made, cancelled or moved, and
        retry for about a day until your endpoint answers 2xx.
      </p>
      <div aria-live="polite">{created && <RevealedSecret secret={created.secret} note={`Verify each message to ${created.url} with it.`} />}</div>
      <WebhookForm choices={choices} onCreated={setCreated} />
      <section aria-labelledby="endpoints-heading" className="flex flex-col gap-3">
        <h2 id="endpoints-heading" className="text-lg font-semibold">
          Your endpoints
        </h2>
        {webhooks.isPending ? (
          <p className="text-slate-500">Loading your endpoints…</p>
        ) : webhooks.isError ? (
          <Alert tone="error">{webhooks.error.message}</Alert>
        ) : webhooks.data.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">No endpoints yet. Add one above to hear about every booking.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {webhooks.data.map((w) => (
              <WebhookCard key={w.id} webhook={w} choices={choices} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
