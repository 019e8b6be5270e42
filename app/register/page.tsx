import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { RegisterForm } from "@/components/auth/register-form";
import { currentHost } from "@/lib/auth/current-host";
import { getConfig } from "@/lib/config";

export const metadata: Metadata = { title: "Create your account" };
export const dynamic = "force-dynamic";

// /register: a new host's account; a signed-in host has one and goes to the dashboard.
export default async function RegisterPage() {
  if (await currentHost()) redirect("/dashboard");
  return (
    <main className="mx-auto flex w-full max-w-md flex-col gap-6 px-6 py-16 sm:py-24">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">Create your account</h1>
        <p className="text-slate-600">Share one link, let guests pick a time that suits you both.</p>
      </div>
      <RegisterForm appUrl={getConfig().appUrl} />
      <p className="text-sm text-slate-600">
        Already have an account?{" "}
        <Link href="/login" className="font-medium text-blue-700 underline">
          Log in
        </Link>
      </p>
    </main>
  );
}
