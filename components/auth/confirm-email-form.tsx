"use client";

import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useApiForm } from "@/components/ui/use-api-form";
import { confirmEmailChange } from "@/lib/browser/api-client/auth";
import { toApiError } from "@/lib/browser/api-client/fetch-json";
import type { ConfirmEmailContext } from "@/lib/forms/auth";
import { confirmEmailRules } from "@/lib/forms/auth-lazy";

const boxClass = "flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6";

/** One button that spends the emailed link: opening the page alone (a mail scanner) changes nothing. */
export function ConfirmEmailForm({ token }: { token: string }) {
  const { form, formRef, onSubmit } = useApiForm<Record<string, never>, ConfirmEmailContext>({ rules: confirmEmailRules, defaultValues: {}, context: { token } });
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; message: string } | null>(null);

  const submit = onSubmit(async () => {
    try {
      setOutcome({ tone: "success", message: (await confirmEmailChange(token)).message });
    } catch (caught) {
      const failure = toApiError(caught);
      setOutcome({ tone: "error", message: failure.issueAt("token") ?? failure.message });
    }
  });

  if (outcome) {
    return (
      <div className={boxClass}>
        <Alert tone={outcome.tone}>{outcome.message}</Alert>
        <Link href="/dashboard/settings" className="font-medium text-blue-700 underline">
          Go to your settings
        </Link>
      </div>
    );
  }
  return (
    <form ref={formRef} onSubmit={submit} className={boxClass}>
      <Button type="submit" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? "Confirming…" : "Confirm new email"}
      </Button>
    </form>
  );
}
