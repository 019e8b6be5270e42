"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { useApiForm } from "@/components/ui/use-api-form";
import type { LoginValues } from "@/lib/forms/auth";
import { loginRules } from "@/lib/forms/auth-lazy";

/** Email and password, checked by next-auth's Credentials provider; on success, on to callbackUrl. */
export function LoginForm({ callbackUrl }: { callbackUrl: string }) {
  const router = useRouter();
  const { form, formRef, onSubmit } = useApiForm<LoginValues>({ rules: loginRules, defaultValues: { email: "", password: "" } });
  const [error, setError] = useState<string | null>(null);
  // Signed in and on the way: the button stays busy until the page changes.
  const [leaving, setLeaving] = useState(false);
  const pending = form.formState.isSubmitting || leaving;

  const submit = onSubmit(async ({ email, password }) => {
    setError(null);
    try {
      const result = await signIn("credentials", { email, password, redirect: false });
      if (result?.ok) {
        setLeaving(true);
        router.replace(callbackUrl);
        router.refresh();
        return;
      }
      setError(result?.error === "rate_limited" ? "Too many attempts; please wait a few minutes and try again." : "The email or password is incorrect.");
    } catch {
      setError("We could not reach the service. Check your connection and try again.");
    }
  });

  return (
    <form ref={formRef} onSubmit={submit} className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6" noValidate>
      {error && <Alert tone="error">{error}</Alert>}
      <TextField control={form.control} name="email" label="Email" required type="email" autoComplete="email" />
      <TextField control={form.control} name="password" label="Password" required type="password" autoComplete="current-password" />
      <Button type="submit" disabled={pending}>
        {pending ? "Logging in…" : "Log in"}
      </Button>
      <Link href="/forgot-password" className="self-start text-sm font-medium text-blue-700 underline">
        Forgot your password?
      </Link>
    </form>
  );
}
