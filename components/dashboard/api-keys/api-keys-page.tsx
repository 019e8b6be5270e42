"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useController, useWatch } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { inputClass } from "@/components/ui/field";
import { FieldMessage, FormField, TextField } from "@/components/ui/form-field";
import { useApiForm } from "@/components/ui/use-api-form";
import { meQuery } from "@/lib/browser/api-client/account";
import { apiKeyKeys, apiKeysQuery, createApiKey, revokeApiKey, type ApiKeyDto, type CreatedApiKeyDto } from "@/lib/browser/api-client/api-keys";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { momentWhen } from "@/lib/dashboard/when";
import type { FormRules } from "@/lib/forms/resolver";
import { API_SCOPES, CreateApiKeyBody, SCOPE_WORDS, type ApiScope } from "@/lib/schemas/api-key";

// Settings → API keys (decisions §18): a key is made with the scopes ticked here, shown once with
// Copy, listed by its prefix, and revoked at once.

/** The resources in the order people think of them, each with its read and (but the last two) write scope. */
const RESOURCES = [...new Set(API_SCOPES.map((s) => s.split(":")[0]!))].map((resource) => ({
  resource,
  read: `${resource}:read` as ApiScope,
  write: (API_SCOPES as readonly string[]).includes(`${resource}:write`) ? (`${resource}:write` as ApiScope) : undefined,
}));
const RESOURCE_NAMES: Record<string, string> = {
  bookings: "Bookings",
  "event-types": "Event types",
  availability: "Availability",
  webhooks: "Webhooks",
  teams: "Teams",
  calendars: "Calendars",
  profile: "Profile",
};

const EXPIRY = [
  { value: "", label: "Never" },
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "365", label: "In a year" },
];

type KeyValues = { name: string; scopes: ApiScope[]; expiry: string };
const toBody = (v: KeyValues) => ({ name: v.name.trim(), scopes: v.scopes, ...(v.expiry ? { expiresInDays: Number(v.expiry) } : {}) });
const keyRules: FormRules<KeyValues> = { schema: CreateApiKeyBody, toBody };
const FIELDS: readonly string[] = ["name", "scopes", "expiry"];

const useWhen = () => {
  const zone = useQuery(meQuery()).data?.timezone ?? "UTC";
  return (iso: string) => momentWhen(iso, zone);
};

/** One resource's two boxes: Write ticks (and holds) Read, since a write scope includes the read. */
function ScopeRow({ row, scopes, onChange, first, invalid }: { row: (typeof RESOURCES)[number]; scopes: ApiScope[]; onChange: (next: ApiScope[]) => void; first?: React.Ref<HTMLInputElement>; invalid: boolean }) {
  const writes = row.write !== undefined && scopes.includes(row.write);
  const reads = writes || scopes.includes(row.read);
  const set = (scope: ApiScope, on: boolean) => {
    let next = scopes.filter((s) => s !== scope);
    if (on) next = [...next, scope];
    if (scope === row.write && on && !next.includes(row.read)) next.push(row.read);
    onChange(API_SCOPES.filter((s) => next.includes(s)));
  };
  const box = "h-4 w-4";
  const resourceName = RESOURCE_NAMES[row.resource] ?? row.resource;
  return (
    <tr className="border-t border-slate-100">
      <th scope="row" className="py-2 pr-3 text-left font-medium">
        {resourceName}
      </th>
      <td className="py-2 pr-3">
        <label className="flex items-start gap-2">
          <input ref={first} type="checkbox" className={box} checked={reads} disabled={writes} onChange={(e) => set(row.read, e.target.checked)} aria-invalid={invalid} />
          <span>
            <span className="sr-only">{resourceName}: </span>Read <span className="block text-xs text-slate-500">{SCOPE_WORDS[row.read]}</span>
          </span>
        </label>
      </td>
      <td className="py-2">
        {row.write ? (
          <label className="flex items-start gap-2">
            <input type="checkbox" className={box} checked={writes} onChange={(e) => set(row.write!, e.target.checked)} aria-invalid={invalid} />
            <span>
              <span className="sr-only">{resourceName}: </span>Write <span className="block text-xs text-slate-500">{SCOPE_WORDS[row.write]}</span>
            </span>
          </label>
        ) : (
          <span className="text-xs text-slate-500">Read only</span>
        )}
      </td>
    </tr>
  );
}

function NewKeyForm({ onCreated }: { onCreated: (created: CreatedApiKeyDto) => void }) {
  const queryClient = useQueryClient();
  const { form, formRef, onSubmit, showServerIssues } = useApiForm<KeyValues>({ rules: keyRules, defaultValues: { name: "", scopes: ["bookings:read"], expiry: "" } });
  const { control } = form;
  const name = useWatch({ control, name: "name" });
  const {
    field: { ref: scopesRef, ...scopes },
    fieldState: scopesState,
  } = useController({ control, name: "scopes" });
  const [failure, setFailure] = useState<string | null>(null);
  const create = useMutation<CreatedApiKeyDto, ApiError, KeyValues>({
    mutationFn: (values) => createApiKey(toBody(values)),
    onSuccess: (created) => {
      form.reset({ name: "", scopes: ["bookings:read"], expiry: "" });
      onCreated(created);
      void queryClient.invalidateQueries({ queryKey: apiKeyKeys.all });
    },
  });
  const submit = onSubmit(
    async (values) => {
      setFailure(null);
      try {
        await create.mutateAsync(values);
      } catch (error) {
        if (!(error instanceof ApiError)) return setFailure("Something went wrong on this page. Please try again.");
        const unplaced = showServerIssues(error.issues, (path) => {
          const field = path === "expiresInDays" ? "expiry" : path.split(".")[0]!;
          return FIELDS.includes(field) ? field : undefined;
        });
        if (unplaced.length === error.issues.length) setFailure(error.message);
      }
    },
    () => setFailure(null),
  );
  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5">
      <h2 className="text-lg font-semibold">Make a key</h2>
      <TextField control={control} name="name" label="Name" required hint="What it is for, so you know which to revoke: “Zapier”, “CRM sync”." maxLength={100} />
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-slate-800">What it may do</legend>
        <div className="overflow-x-auto">
          <table className="w-full min-w-[20rem] text-sm">
            <tbody>
              {RESOURCES.map((row, i) => (
                <ScopeRow key={row.resource} row={row} scopes={scopes.value} onChange={scopes.onChange} first={i === 0 ? scopesRef : undefined} invalid={Boolean(scopesState.error)} />
              ))}
            </tbody>
          </table>
        </div>
        <p className="text-xs text-slate-500">A key never changes your password, email, username, keys or calendar connections: those need you signed in.</p>
        {scopesState.error && <FieldMessage>{scopesState.error.message}</FieldMessage>}
      </fieldset>
      <FormField control={control} name="expiry" label="Expires">
        {(wiring, field) => (
          <select {...wiring} {...field} className={`${inputClass} sm:max-w-xs`}>
            {EXPIRY.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        )}
      </FormField>
      {failure && <Alert tone="error">{failure}</Alert>}
      <Button type="submit" disabled={create.isPending || !name.trim()} className="self-start">
        {create.isPending ? "Making…" : "Make key"}
      </Button>
    </form>
  );
}

function KeyRow({ apiKey }: { apiKey: ApiKeyDto }) {
  const when = useWhen();
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState(false);
  const revoke = useMutation({ mutationFn: () => revokeApiKey(apiKey.id), onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }) });
  const [shownAt] = useState(() => Date.now());
  const expired = apiKey.expiresAt !== null && Date.parse(apiKey.expiresAt) <= shownAt;
  return (
    <li className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-medium">
          {apiKey.name} <code className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">{apiKey.prefix}…</code>
        </p>
        <p className="text-sm text-slate-600">{apiKey.scopes.join(", ")}</p>
        <p className="text-sm text-slate-600">
          Made {when(apiKey.createdAt)} · {apiKey.lastUsedAt ? `last used ${when(apiKey.lastUsedAt)}` : "never used"} ·{" "}
          {apiKey.expiresAt ? (expired ? <span className="text-red-800">expired {when(apiKey.expiresAt)}</span> : `expires ${when(apiKey.expiresAt)}`) : "never expires"}
        </p>
        {revoke.isError && <Alert tone="error">{revoke.error.message}</Alert>}
      </div>
      <Button variant="secondary" size="sm" onClick={() => setConfirm(true)} className="self-start">
        Revoke
      </Button>
      <ConfirmDialog open={confirm} title={`Revoke “${apiKey.name}”?`} confirmLabel="Revoke key" pending={revoke.isPending} onConfirm={() => revoke.mutate()} onClose={() => setConfirm(false)}>
        <p>Anything using this key is refused from now on. This cannot be undone; you can make a new key.</p>
      </ConfirmDialog>
    </li>
  );
}

/** The account's keys: make one (shown once), list them, revoke. */
export function ApiKeysPage() {
  const keys = useQuery(apiKeysQuery());
  const [created, setCreated] = useState<CreatedApiKeyDto | null>(null);
  return (
    <>
      <p className="text-slate-600">
        A script, Zapier or your CRM uses a key instead of your password: send it as <code>Authorization: Bearer bk_…</code> to <code>/api/v1</code>. Each key may do only what you tick.
      </p>
      <div aria-live="polite">
        {created && (
          <Alert tone="warning">
            <p className="font-medium">Copy “{created.name}” now: the key is shown only once.</p>
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <code data-testid="new-api-key" className="break-all rounded bg-white px-2 py-1 text-sm text-slate-900">
                {created.key}
              </code>
              <CopyButton text={created.key} label="Copy key" />
            </div>
          </Alert>
        )}
      </div>
      <NewKeyForm onCreated={setCreated} />
      <section aria-labelledby="keys-heading" className="flex flex-col gap-3">
        <h2 id="keys-heading" className="text-lg font-semibold">
          Your keys
        </h2>
        {keys.isPending ? (
          <p className="text-slate-500">Loading your keys…</p>
        ) : keys.isError ? (
          <Alert tone="error">{keys.error.message}</Alert>
        ) : keys.data.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">No keys yet. Make one above when an integration needs it.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {keys.data.map((k) => (
              <KeyRow key={k.id} apiKey={k} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
