"use client";

import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { fetchJson, toApiError } from "@/lib/browser/api-client/fetch-json";

/** One button that spends the emailed link: opening the page alone (a mail scanner) changes nothing. */
export function ConfirmEmailForm({ token }: { token: string }) {
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function confirm() {
    setPending(true);
    setError(null);
    try {
      setDone((await fetchJson<{ message: string }>("/auth/email-change/confirm", { method: "POST", body: { token } })).message);
    } catch (caught) {
      const failure = toApiError(caught);
      setError(failure.issueAt("token") ?? failure.message);
    }
    setPending(false);
  }

  return (
    <div className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6">
      {done && <Alert tone="success">{done}</Alert>}
      {error && <Alert tone="error">{error}</Alert>}
      {done || error ? (
        <Link href="/dashboard/settings" className="font-medium text-blue-700 underline">
          Go to your settings
        </Link>
      ) : (
        <Button type="button" onClick={confirm} disabled={pending}>
          {pending ? "Confirming…" : "Confirm new email"}
        </Button>
      )}
    </div>
  );
}
