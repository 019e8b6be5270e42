"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useController, useWatch } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FieldMessage, TextField } from "@/components/ui/form-field";
import { useApiForm } from "@/components/ui/use-api-form";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { createWebhook, webhookKeys, type CreatedWebhookDto, type WebhookEvent } from "@/lib/browser/api-client/webhooks";
import type { FormRules } from "@/lib/forms/resolver";
import { CreateWebhookBody } from "@/lib/schemas/webhook";

const EVENTS: { value: WebhookEvent; label: string }[] = [
  { value: "booking.created", label: "A booking is made" },
  { value: "booking.cancelled", label: "A booking is cancelled" },
  { value: "booking.rescheduled", label: "A booking is moved" },
];

type WebhookValues = { url: string; events: WebhookEvent[] };
const FIELDS: readonly string[] = ["url", "events"];
const toBody = (v: WebhookValues) => ({ url: v.url.trim(), events: v.events });
/** Checked as the API checks it (POST /me/webhooks); the API alone knows whether the address is on the public internet. */
const webhookRules: FormRules<WebhookValues> = { schema: CreateWebhookBody, toBody };

/** A new endpoint: its address and the events it gets (all of them to begin with). */
export function AddWebhookForm({ onCreated }: { onCreated: (created: CreatedWebhookDto) => void }) {
  const queryClient = useQueryClient();
  const { form, formRef, onSubmit, showServerIssues } = useApiForm<WebhookValues>({
    rules: webhookRules,
    defaultValues: { url: "", events: EVENTS.map((e) => e.value) },
  });
  const { control } = form;
  const url = useWatch({ control, name: "url" });
  const {
    field: { ref: eventsRef, ...events },
    fieldState: eventsState,
  } = useController({ control, name: "events" });
  const [failure, setFailure] = useState<string | null>(null);
  const create = useMutation<CreatedWebhookDto, ApiError, WebhookValues>({
    mutationFn: (values) => createWebhook(toBody(values)),
    onSuccess: (created, values) => {
      form.reset({ url: "", events: values.events });
      onCreated(created);
      void queryClient.invalidateQueries({ queryKey: webhookKeys.all });
    },
  });

  const submit = onSubmit(
    async (values) => {
      setFailure(null);
      try {
        await create.mutateAsync(values);
      } catch (error) {
        if (!(error instanceof ApiError)) return setFailure("Something went wrong on this page. Please try again.");
        const unplaced = showServerIssues(error.issues, (path) => (FIELDS.includes(path) ? path : undefined));
        if (unplaced.length === error.issues.length) setFailure(error.message);
      }
    },
    () => setFailure(null),
  );

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5">
      <h2 className="text-lg font-semibold">Add an endpoint</h2>
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
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-slate-800">Send these events</legend>
        {EVENTS.map((e, i) => (
          <label key={e.value} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="h-4 w-4"
              name={events.name}
              ref={i === 0 ? eventsRef : undefined}
              checked={events.value.includes(e.value)}
              onChange={(ev) => events.onChange(ev.target.checked ? [...events.value, e.value] : events.value.filter((x) => x !== e.value))}
              onBlur={events.onBlur}
              aria-invalid={Boolean(eventsState.error)}
              aria-describedby={eventsState.error ? "webhook-events-problem" : undefined}
            />
            {e.label} <code className="text-xs text-slate-500">{e.value}</code>
          </label>
        ))}
        {eventsState.error && <FieldMessage id="webhook-events-problem">{eventsState.error.message}</FieldMessage>}
      </fieldset>
      {failure && <Alert tone="error">{failure}</Alert>}
      <Button type="submit" disabled={create.isPending || !url.trim()} className="self-start">
        {create.isPending ? "Adding…" : "Add endpoint"}
      </Button>
    </form>
  );
}
