"use client";

import { useMutation } from "@tanstack/react-query";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { useFieldErrors } from "@/components/ui/use-field-errors";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { changePassword } from "@/lib/browser/api-client/host";

type FieldName = "currentPassword" | "newPassword";

/** What the page can see before sending (the API says whether the current password is right). */
function check(currentPassword: string, newPassword: string): Partial<Record<FieldName, string>> {
  const problems: Partial<Record<FieldName, string>> = {};
  if (currentPassword === "") problems.currentPassword = "Enter your current password.";
  if (newPassword.length < 8) problems.newPassword = "Use at least 8 characters.";
  else if (newPassword.length > 128) problems.newPassword = "Use at most 128 characters.";
  return problems;
}

/**
 * POST /me/password. A change ends every session, this browser's too, so the form signs in
 * again with the new password before it says "changed".
 */
export function PasswordForm({ email }: { email: string }) {
  const router = useRouter();
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [general, setGeneral] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const change = useMutation({ mutationFn: changePassword });
  const formRef = useRef<HTMLFormElement>(null);
  const problems = useFieldErrors<FieldName>(formRef);
  const errors = problems.errors;

  function edited(field: FieldName, current: string, next: string) {
    setDone(false);
    problems.edited(check(current, next), [field]);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setDone(false);
    setGeneral(null);
    const local = check(currentPassword, newPassword);
    problems.show(local);
    if (Object.keys(local).length > 0) return;
    try {
      await change.mutateAsync({ currentPassword, newPassword });
      const again = await signIn("credentials", { email, password: newPassword, redirect: false });
      if (!again?.ok) return router.push("/login");
      setCurrentPassword("");
      setNewPassword("");
      setDone(true);
    } catch (error) {
      if (!(error instanceof ApiError)) return setGeneral("Something went wrong. Please try again.");
      if (error.status === 401) return; // the dashboard is taking the person to /login
      const atFields: Partial<Record<FieldName, string>> = {};
      for (const f of ["currentPassword", "newPassword"] as const) {
        const message = error.issueAt(f);
        if (message) atFields[f] = message;
      }
      problems.show({}, atFields);
      if (Object.keys(atFields).length === 0) setGeneral(error.message);
    }
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-5 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <div className="flex flex-col gap-1">
        <h2 className="text-lg font-semibold">Password</h2>
        <p className="text-sm text-slate-600">Changing it logs you out on every other device, and ends any API token made with the old one.</p>
      </div>
      {general && <Alert tone="error">{general}</Alert>}
      <Field label="Current password" required error={errors.currentPassword}>
        {(p) => (
          <input
            {...p}
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(e) => {
              setCurrentPassword(e.target.value);
              edited("currentPassword", e.target.value, newPassword);
            }}
            className={inputClass}
          />
        )}
      </Field>
      <Field label="New password" required error={errors.newPassword} hint="At least 8 characters.">
        {(p) => (
          <input
            {...p}
            type="password"
            autoComplete="new-password"
            value={newPassword}
            onChange={(e) => {
              setNewPassword(e.target.value);
              edited("newPassword", currentPassword, e.target.value);
            }}
            className={inputClass}
          />
        )}
      </Field>
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
