"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { fetchJson, toApiError } from "@/lib/browser/api-client/fetch-json";

type FieldName = "newEmail" | "password";

/** POST /me/email: a link goes to the new address; the email changes when it is opened. */
export function EmailForm({ email }: { email: string }) {
  const [newEmail, setNewEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setErrors({});
    setGeneral(null);
    setSent(null);
    try {
      setSent((await fetchJson<{ message: string }>("/me/email", { method: "POST", body: { newEmail, password } })).message);
      setPassword("");
    } catch (caught) {
      const failure = toApiError(caught);
      if (failure.status === 401) return; // the dashboard is taking the person to /login
      if (failure.code === "conflict") setErrors({ newEmail: "Another account uses this email." });
      else {
        const found: Partial<Record<FieldName, string>> = {};
        for (const f of ["newEmail", "password"] as const) {
          const message = failure.issueAt(f);
          if (message) found[f] = message;
        }
        setErrors(found);
        if (Object.keys(found).length === 0) setGeneral(failure.message);
      }
    }
    setPending(false);
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby="email-heading" className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <h2 id="email-heading" className="text-lg font-semibold">
        Change email
      </h2>
      <p className="text-sm text-slate-600">
        You log in with <span className="break-all font-medium">{email}</span>. We send a link to the new address; the change happens when you open it.
      </p>
      {general && <Alert tone="error">{general}</Alert>}
      {sent && <Alert tone="success">{sent}</Alert>}
      <Field label="New email" required error={errors.newEmail}>
        {(p) => <input {...p} type="email" autoComplete="email" required value={newEmail} onChange={(e) => setNewEmail(e.target.value)} className={inputClass} />}
      </Field>
      <Field label="Your password" required error={errors.password}>
        {(p) => (
          <input {...p} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} className={inputClass} />
        )}
      </Field>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Sending…" : "Send confirmation link"}
        </Button>
      </div>
    </form>
  );
}
