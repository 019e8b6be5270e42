import type { Metadata } from "next";
import Link from "next/link";
import { ForgotPasswordForm } from "@/components/auth/forgot-password-form";
import { PasswordsOff } from "@/components/auth/passwords-off";
import { getConfig } from "@/lib/config";
import { oidcName } from "@/lib/services/accounts/password-policy";

export const metadata: Metadata = { title: "Forgot your password?" };
// PASSWORD_LOGIN is read when the server starts, never at build.
export const dynamic = "force-dynamic";

// /forgot-password: a host asks for a reset link by email (with PASSWORD_LOGIN=off: where to sign in instead).
export default function ForgotPasswordPage() {
  const { passwordLogin } = getConfig();
  if (!passwordLogin) return <PasswordsOff title="Forgot your password?" oidcName={oidcName()} />;
  return (
    <main className="mx-auto flex w-full max-w-md flex-col gap-6 px-6 py-16 sm:py-24">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">Forgot your password?</h1>
        <p className="text-slate-600">Enter the email of your account and we will send you a link to set a new one.</p>
      </div>
      <ForgotPasswordForm />
      <p className="text-sm text-slate-600">
        Remembered it?{" "}
        <Link href="/login" className="font-medium text-blue-700 underline">
          Log in
        </Link>
      </p>
    </main>
  );
}
