"use client";

import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { useApiForm } from "@/components/ui/use-api-form";
import { resetPassword } from "@/lib/browser/api-client/auth";
import { toApiError } from "@/lib/browser/api-client/fetch-json";
import type { NewPasswordContext, NewPasswordValues } from "@/lib/forms/auth";
import { newPasswordRules } from "@/lib/forms/auth-lazy";

/** After the form: the password is set, or the link no longer works. */
function Outcome({ tone, message, next }: { tone: "success" | "error"; message: string; next: { href: string; label: string } }) {
  return (
    <div className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6">
      <Alert tone={tone}>{message}</Alert>
      <Link href={next.href} className="font-medium text-blue-700 underline">
        {next.label}
      </Link>
    </div>
  );
}

/** A new password for the account behind an emailed reset link. */
export function ResetPasswordForm({ token }: { token: string }) {
  const { form, formRef, onSubmit, showServerIssues } = useApiForm<NewPasswordValues, NewPasswordContext>({
    rules: newPasswordRules,
    defaultValues: { newPassword: "" },
    context: { token },
  });
  const [error, setError] = useState<string | null>(null);
  const [tokenError, setTokenError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const submit = onSubmit(async ({ newPassword }) => {
    setError(null);
    try {
      setDone((await resetPassword(token, newPassword)).message);
    } catch (caught) {
      const failure = toApiError(caught);
      // A problem with the token is the link's: the page says so instead of the form.
      const atToken = failure.issueAt("token");
      if (atToken) return setTokenError(atToken);
      const unplaced = showServerIssues(failure.issues, (path) => (path === "newPassword" ? path : undefined));
      if (unplaced.length === failure.issues.length) setError(failure.message);
    }
  });

  if (done) return <Outcome tone="success" message={done} next={{ href: "/login", label: "Log in" }} />;
  if (tokenError) return <Outcome tone="error" message={tokenError} next={{ href: "/forgot-password", label: "Ask for a new link" }} />;
  return (
    <form ref={formRef} onSubmit={submit} className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6" noValidate>
      {error && <Alert tone="error">{error}</Alert>}
      <TextField
        control={form.control}
        name="newPassword"
        label="New password"
        hint="8 to 128 characters."
        required
        type="password"
        autoComplete="new-password"
        minLength={8}
        maxLength={128}
      />
      <Button type="submit" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? "Saving…" : "Set new password"}
      </Button>
    </form>
  );
}
