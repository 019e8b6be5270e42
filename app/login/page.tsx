import type { Metadata } from "next";
import { redirect } from "next/navigation";
import Link from "next/link";
import { LoginForm } from "@/components/auth/login-form";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { currentHost } from "@/lib/dashboard/current-host";

export const metadata: Metadata = { title: "Log in" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// /login?callbackUrl=…: the dashboard's sign-in; a signed-in host goes straight on.
export default async function LoginPage({ searchParams }: Props) {
  const callbackUrl = safeCallbackUrl((await searchParams).callbackUrl);
  if (await currentHost()) redirect(callbackUrl);
  return (
    <main className="mx-auto flex w-full max-w-md flex-col gap-6 px-6 py-16 sm:py-24">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">Log in</h1>
        <p className="text-slate-600">Manage your availability, event types and bookings.</p>
      </div>
      <LoginForm callbackUrl={callbackUrl} />
      <p className="text-sm text-slate-600">
        New here?{" "}
        <Link href="/register" className="font-medium text-blue-700 underline">
          Create an account
        </Link>
      </p>
    </main>
  );
}
