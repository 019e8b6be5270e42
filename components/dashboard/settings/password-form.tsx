"use client";

import { useMutation } from "@tanstack/react-query";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { useApiForm } from "@/components/ui/use-api-form";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { changePassword } from "@/lib/browser/api-client/account";
import { passwordRules, type PasswordValues } from "@/lib/forms/account";

const FIELDS: readonly string[] = ["currentPassword", "newPassword"];
const empty: PasswordValues = { currentPassword: "", newPassword: "" };

/**
 * POST /me/password. A change ends every session, this browser's too, so the form signs in
 * again with the new password before it says "changed".
 */
export function PasswordForm({ email }: { email: string }) {
  const router = useRouter();
  const [general, setGeneral] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const change = useMutation({ mutationFn: changePassword });
  // The page checks what it can see; the API says whether the current password is right.
  const { form, formRef, onSubmit, showServerIssues } = useApiForm<PasswordValues>({ rules: passwordRules, defaultValues: empty });
  const { control } = form;
  useEffect(() => form.subscribe({ formState: { values: true }, callback: () => setDone(false) }), [form]);

  const submit = onSubmit(
    async (input) => {
      setGeneral(null);
      try {
        await change.mutateAsync(input);
        const again = await signIn("credentials", { email, password: input.newPassword, redirect: false });
        if (!again?.ok) return router.push("/login");
        form.reset(empty);
        setDone(true);
      } catch (error) {
        if (!(error instanceof ApiError)) return setGeneral("Something went wrong. Please try again.");
        if (error.status === 401) return; // the dashboard is taking the person to /login
        const unplaced = showServerIssues(error.issues, (path) => (FIELDS.includes(path) ? path : undefined));
        if (unplaced.length === error.issues.length) setGeneral(error.message);
      }
    },
    () => {
      setDone(false);
      setGeneral(null);
    },
  );

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-5 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <div className="flex flex-col gap-1">
        <h2 className="text-lg font-semibold">Password</h2>
        <p className="text-sm text-slate-600">Changing it logs you out on every other device, and ends any API token made with the old one.</p>
      </div>
      {general && <Alert tone="error">{general}</Alert>}
      <TextField control={control} name="currentPassword" label="Current password" required type="password" autoComplete="current-password" />
      <TextField control={control} name="newPassword" label="New password" required hint="At least 8 characters." type="password" autoComplete="new-password" />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? "Changing…" : "Change password"}
        </Button>
        <p role="status" className="text-sm font-medium text-green-800">
          {done ? "Password changed" : ""}
        </p>
      </div>
    </form>
  );
}
