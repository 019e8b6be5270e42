"use client";

import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { useApiForm } from "@/components/ui/use-api-form";
import { requestPasswordReset } from "@/lib/browser/api-client/auth";
import { toApiError } from "@/lib/browser/api-client/fetch-json";
import type { ForgotPasswordValues } from "@/lib/forms/auth";
import { forgotPasswordRules } from "@/lib/forms/auth-lazy";

function Sent({ message, onAgain }: { message: string; onAgain: () => void }) {
  return (
    <div className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6">
      <Alert tone="success">{message}</Alert>
      <p className="text-sm text-slate-600">
        Nothing after a few minutes? Check your spam folder, or{" "}
        <button type="button" className="font-medium text-blue-700 underline" onClick={onAgain}>
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

/** The host's email, for a reset link; the answer is the same whether or not it has an account. */
export function ForgotPasswordForm() {
  const { form, formRef, onSubmit, showServerIssues } = useApiForm<ForgotPasswordValues>({ rules: forgotPasswordRules, defaultValues: { email: "" } });
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);

  const submit = onSubmit(async ({ email }) => {
    setError(null);
    try {
      setSent((await requestPasswordReset(email)).message);
    } catch (caught) {
      const failure = toApiError(caught);
      const unplaced = showServerIssues(failure.issues, (path) => (path === "email" ? path : undefined));
      if (unplaced.length === failure.issues.length) setError(failure.message);
    }
  });

  if (sent) return <Sent message={sent} onAgain={() => setSent(null)} />;
  return (
    <form ref={formRef} onSubmit={submit} className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6" noValidate>
      {error && <Alert tone="error">{error}</Alert>}
      <TextField control={form.control} name="email" label="Email" required type="email" autoComplete="email" />
      <Button type="submit" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? "Sending…" : "Send me a reset link"}
      </Button>
    </form>
  );
}
