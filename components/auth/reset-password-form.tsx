"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { fetchJson, toApiError } from "@/lib/browser/api-client/fetch-json";

/** A new password for the account behind an emailed reset link. */
export function ResetPasswordForm({ token }: { token: string }) {
  const [password, setPassword] = useState("");
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [tokenError, setTokenError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    setPasswordError(undefined);
    try {
      const result = await fetchJson<{ message: string }>("/auth/password-reset/confirm", { method: "POST", body: { token, newPassword: password } });
      setDone(result.message);
    } catch (caught) {
      const failure = toApiError(caught);
      const atToken = failure.issueAt("token");
      const atPassword = failure.issueAt("newPassword");
      if (atToken) setTokenError(atToken);
      else if (atPassword) setPasswordError(atPassword);
      else setError(failure.message);
    }
    setPending(false);
  }

  if (done) {
    return (
      <div className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6">
        <Alert tone="success">{done}</Alert>
        <Link href="/login" className="font-medium text-blue-700 underline">
          Log in
        </Link>
      </div>
    );
  }

  if (tokenError) {
    return (
      <div className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6">
        <Alert tone="error">{tokenError}</Alert>
        <Link href="/forgot-password" className="font-medium text-blue-700 underline">
          Ask for a new link
        </Link>
      </div>
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6" noValidate>
      {error && <Alert tone="error">{error}</Alert>}
      <Field label="New password" hint="8 to 128 characters." required error={passwordError}>
        {(p) => (
          <input
            {...p}
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            maxLength={128}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            className={inputClass}
          />
        )}
      </Field>
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Set new password"}
      </Button>
    </form>
  );
}
