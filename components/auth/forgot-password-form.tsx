"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { ApiError, fetchJson, toApiError } from "@/lib/browser/api-client/fetch-json";

/** The host's email, for a reset link; the answer is the same whether or not it has an account. */
export function ForgotPasswordForm() {
  const [email, setEmail] = useState("");
  const [emailError, setEmailError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    setEmailError(undefined);
    try {
      const result = await fetchJson<{ message: string }>("/auth/password-reset", { method: "POST", body: { email } });
      setSent(result.message);
    } catch (caught) {
      const failure = toApiError(caught);
      const atField = failure instanceof ApiError ? failure.issueAt("email") : undefined;
      if (atField) setEmailError(atField);
      else setError(failure.message);
    }
    setPending(false);
  }

  if (sent) {
    return (
      <div className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6">
        <Alert tone="success">{sent}</Alert>
        <p className="text-sm text-slate-600">
          Nothing after a few minutes? Check your spam folder, or{" "}
          <button type="button" className="font-medium text-blue-700 underline" onClick={() => setSent(null)}>
            try again
          </button>
          .
        </p>
        <Link href="/login" className="text-sm font-medium text-blue-700 underline">
          Back to log in
        </Link>
      </div>
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6" noValidate>
      {error && <Alert tone="error">{error}</Alert>}
      <Field label="Email" required error={emailError}>
        {(p) => <input {...p} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} className={inputClass} />}
      </Field>
      <Button type="submit" disabled={pending}>
        {pending ? "Sending…" : "Send me a reset link"}
      </Button>
    </form>
  );
}
