import type { Metadata } from "next";
import Link from "next/link";
import { ForgotPasswordForm } from "@/components/auth/forgot-password-form";

export const metadata: Metadata = { title: "Forgot your password?" };

// /forgot-password: a host asks for a reset link by email.
export default function ForgotPasswordPage() {
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
