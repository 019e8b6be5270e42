"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useController, useWatch, type Control } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FieldMessage, TextField } from "@/components/ui/form-field";
import { useApiForm } from "@/components/ui/use-api-form";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { createWebhook, updateWebhook, webhookKeys, type CreatedWebhookDto, type WebhookDto } from "@/lib/browser/api-client/webhooks";
import { EVENT_CHOICES, NEW_WEBHOOK, newWebhookRules, webhookBody, webhookChangeRules, webhookFieldOf, webhookValues, type WebhookValues } from "@/lib/forms/webhook";
import type { EventTypeChoices } from "./event-type-choices";

/** The events, as ticks; the ones the form does not offer (confirmed, no-show) stay as they are. */
function EventsField({ control }: { control: Control<WebhookValues> }) {
  const id = useId();
  const {
    field: { ref, ...events },
    fieldState,
  } = useController({ control, name: "events" });
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium text-slate-800">Send these events</legend>
      {EVENT_CHOICES.map((e, i) => (
        <label key={e.value} className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="h-4 w-4"
            name={events.name}
            ref={i === 0 ? ref : undefined}
            checked={events.value.includes(e.value)}
            onChange={(ev) => events.onChange(ev.target.checked ? [...events.value, e.value] : events.value.filter((x) => x !== e.value))}
            onBlur={events.onBlur}
            aria-invalid={Boolean(fieldState.error)}
            aria-describedby={fieldState.error ? `${id}-problem` : undefined}
          />
          {e.label} <code className="text-xs text-slate-500">{e.value}</code>
        </label>
      ))}
      {fieldState.error && <FieldMessage id={`${id}-problem`}>{fieldState.error.message}</FieldMessage>}
    </fieldset>
  );
}

/** Whose bookings: all event types (the default, new ones included), or only the ones ticked, grouped by owner. */
function EventTypesField({ control, choices }: { control: Control<WebhookValues>; choices: EventTypeChoices }) {
  const id = useId();
  const { field: scope } = useController({ control, name: "scope" });
  const {
    field: { ref, ...picked },
    fieldState,
  } = useController({ control, name: "eventTypeIds" });
  const problem = fieldState.error?.message;
  const options = [
    { value: "all", label: "All event types", hint: "Yours and the team ones you host, including any you add later." },
    { value: "only", label: "Only these", hint: "Bookings of the event types you tick below." },
  ] as const;
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium text-slate-800">For bookings of</legend>
      {options.map((o) => (
        <label key={o.value} className="flex cursor-pointer items-start gap-2 text-sm">
          <input
            type="radio"
            className="mt-0.5 h-4 w-4 shrink-0"
            name={scope.name}
            value={o.value}
            checked={scope.value === o.value}
            onChange={() => scope.onChange(o.value)}
            onBlur={scope.onBlur}
          />
          <span>
            <span className="font-medium">{o.label}</span> <span className="text-slate-600">{o.hint}</span>
          </span>
        </label>
      ))}
      {scope.value === "only" &&
        (choices.status === "pending" ? (
          <p className="pl-6 text-sm text-slate-500">Loading your event types…</p>
        ) : choices.status === "error" ? (
          <Alert tone="error">Your event types could not be loaded. Reload the page to choose among them.</Alert>
        ) : choices.groups.length === 0 ? (
          <p className="pl-6 text-sm text-slate-600">You have no event types yet.</p>
        ) : (
          <div className="flex flex-col gap-3 pl-6" role="group" aria-label="Event types" aria-describedby={problem ? `${id}-problem` : undefined}>
            {choices.groups.map((g, gi) => (
              <fieldset key={g.key} className="flex flex-col gap-1.5">
                <legend className="text-xs font-medium uppercase tracking-wide text-slate-500">{g.label}</legend>
                {g.choices.map((c, ci) => (
                  <label key={c.id} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="h-4 w-4"
                      name={picked.name}
                      value={c.id}
                      ref={gi === 0 && ci === 0 ? ref : undefined}
                      checked={picked.value.includes(c.id)}
                      onChange={(ev) => picked.onChange(ev.target.checked ? [...picked.value, c.id] : picked.value.filter((x) => x !== c.id))}
                      onBlur={picked.onBlur}
                      aria-invalid={Boolean(problem)}
                    />
                    {c.title}
                    {c.hidden && <span className="text-xs text-slate-500">(hidden)</span>}
                  </label>
                ))}
              </fieldset>
            ))}
          </div>
        ))}
      {problem && <FieldMessage id={`${id}-problem`}>{problem}</FieldMessage>}
    </fieldset>
  );
}

type Props = { choices: EventTypeChoices } & (
  | { webhook?: undefined; onCreated: (created: CreatedWebhookDto) => void; onDone?: undefined }
  | { webhook: WebhookDto; onCreated?: undefined; onDone: () => void }
);

/** A new endpoint (its address, events and event types), or a change to one: the same fields, the same checks. */
export function WebhookForm({ choices, webhook, onCreated, onDone }: Props) {
  const queryClient = useQueryClient();
  const { form, formRef, onSubmit, showServerIssues } = useApiForm<WebhookValues>({
    rules: webhook ? webhookChangeRules : newWebhookRules,
    // Unless the choices could not be read, a listed id no longer among them is dropped (see webhookValues).
    defaultValues: webhook ? webhookValues(webhook, choices.status === "ready" ? new Set(choices.titles.keys()) : new Set(webhook.eventTypeIds)) : NEW_WEBHOOK,
  });
  const { control } = form;
  const url = useWatch({ control, name: "url" });
  const [failure, setFailure] = useState<string | null>(null);
  const save = useMutation<CreatedWebhookDto | WebhookDto, ApiError, WebhookValues>({
    mutationFn: (values) => (webhook ? updateWebhook(webhook.id, webhookBody(values)) : createWebhook(webhookBody(values))),
    onSuccess: (saved, values) => {
      void queryClient.invalidateQueries({ queryKey: webhookKeys.all });
      if (webhook) return onDone();
      form.reset({ ...NEW_WEBHOOK, events: values.events });
      // A POST answers with the new webhook and its secret.
      onCreated(saved as CreatedWebhookDto);
    },
  });

  const submit = onSubmit(
    async (values) => {
      setFailure(null);
      try {
        await save.mutateAsync(values);
      } catch (error) {
        if (!(error instanceof ApiError)) return setFailure("Something went wrong on this page. Please try again.");
        const unplaced = showServerIssues(error.issues, webhookFieldOf);
        if (unplaced.length === error.issues.length) setFailure(error.message);
      }
    },
    () => setFailure(null),
  );

  const busy = save.isPending;
  return (
    <form
      ref={formRef}
      onSubmit={submit}
      noValidate
      aria-label={webhook ? `Edit ${webhook.url}` : undefined}
      className={webhook ? "flex flex-col gap-4 border-t border-slate-100 pt-3" : "flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5"}
    >
      {!webhook && <h2 className="text-lg font-semibold">Add an endpoint</h2>}
      <TextField
        control={control}
        name="url"
        label="Endpoint URL"
        required
        hint="Where we POST signed JSON messages. https is strongly recommended."
        type="url"
        inputMode="url"
        placeholder="https://example.com/webhooks/booking"
      />
      <EventsField control={control} />
      <EventTypesField control={control} choices={choices} />
      {failure && <Alert tone="error">{failure}</Alert>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy || !url.trim()}>
          {webhook ? (busy ? "Saving…" : "Save changes") : busy ? "Adding…" : "Add endpoint"}
        </Button>
        {webhook && (
          <Button type="button" variant="secondary" onClick={onDone}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
