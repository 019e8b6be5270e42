"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { useApiForm } from "@/components/ui/use-api-form";
import { requestEmailChange } from "@/lib/browser/api-client/account";
import { toApiError } from "@/lib/browser/api-client/fetch-json";
import { emailRules, type EmailValues } from "@/lib/forms/account";

const FIELDS: readonly string[] = ["newEmail", "password"];

/** POST /me/email: a link goes to the new address; the email changes when it is opened. */
export function EmailForm({ email }: { email: string }) {
  const [general, setGeneral] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const { form, formRef, onSubmit, showServerIssues } = useApiForm<EmailValues>({
    rules: emailRules,
    defaultValues: { newEmail: "", password: "" },
  });
  const { control, formState } = form;

  const submit = onSubmit(
    async (input) => {
      setGeneral(null);
      setSent(null);
      try {
        setSent((await requestEmailChange(input)).message);
        form.resetField("password", { defaultValue: "" });
      } catch (caught) {
        const failure = toApiError(caught);
        if (failure.status === 401) return; // the dashboard is taking the person to /login
        const unplaced = showServerIssues(failure.issues, (path) => (FIELDS.includes(path) ? path : undefined));
        if (unplaced.length === failure.issues.length) setGeneral(failure.message);
      }
    },
    () => {
      setGeneral(null);
      setSent(null);
    },
  );

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-labelledby="email-heading" className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <h2 id="email-heading" className="text-lg font-semibold">
        Change email
      </h2>
      <p className="text-sm text-slate-600">
        You log in with <span className="break-all font-medium">{email}</span>. We send a link to the new address; the change happens when you open it.
      </p>
      {general && <Alert tone="error">{general}</Alert>}
      {sent && <Alert tone="success">{sent}</Alert>}
      <TextField control={control} name="newEmail" label="New email" required type="email" autoComplete="email" />
      <TextField control={control} name="password" label="Your password" required type="password" autoComplete="current-password" />
      <div>
        <Button type="submit" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? "Sending…" : "Send confirmation link"}
        </Button>
      </div>
    </form>
  );
}
