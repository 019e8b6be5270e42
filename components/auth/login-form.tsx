"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";

/** Email and password, checked by next-auth's Credentials provider; on success, on to callbackUrl. */
export function LoginForm({ callbackUrl }: { callbackUrl: string }) {
  const router = useRouter();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const result = await signIn("credentials", { email, password, redirect: false });
      if (result?.ok) {
        router.replace(callbackUrl);
        router.refresh();
        return;
      }
      setError(result?.error === "rate_limited" ? "Too many attempts; please wait a few minutes and try again." : "The email or password is incorrect.");
    } catch {
      setError("We could not reach the service. Check your connection and try again.");
    }
    setPending(false);
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6" noValidate>
      {error && <Alert tone="error">{error}</Alert>}
      <Field label="Email" required>
        {(p) => <input {...p} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} className={inputClass} />}
      </Field>
      <Field label="Password" required>
        {(p) => (
          <input {...p} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} className={inputClass} />
        )}
      </Field>
      <Button type="submit" disabled={pending}>
        {pending ? "Logging in…" : "Log in"}
      </Button>
      <Link href="/forgot-password" className="self-start text-sm font-medium text-blue-700 underline">
        Forgot your password?
      </Link>
    </form>
  );
}
