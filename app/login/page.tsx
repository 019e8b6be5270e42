import type { Metadata } from "next";
import { redirect } from "next/navigation";
import Link from "next/link";
import { LoginForm } from "@/components/auth/login-form";
import { OidcButton } from "@/components/auth/oidc-button";
import { signInErrorWords } from "@/components/auth/sign-in-errors";
import { Alert } from "@/components/ui/alert";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { getConfig } from "@/lib/config";
import { currentHost } from "@/lib/dashboard/current-host";

export const metadata: Metadata = { title: "Log in" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// /login?callbackUrl=…: the dashboard's sign-in; a signed-in host goes straight on. The company
// sign-in's button (OIDC_*) sits above the password form, or alone with PASSWORD_LOGIN=off;
// ?error= (a sign-in that came back refused) is said in words.
export default async function LoginPage({ searchParams }: Props) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  if (await currentHost()) redirect(callbackUrl);
  const { oidc, passwordLogin } = getConfig();
  const error = signInErrorWords(typeof params.error === "string" ? params.error : undefined, oidc?.name ?? "Company sign-in", passwordLogin);
  return (
    <main className="mx-auto flex w-full max-w-md flex-col gap-6 px-6 py-16 sm:py-24">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">Log in</h1>
        <p className="text-slate-600">Manage your availability, event types and bookings.</p>
      </div>
      {error && <Alert tone="error">{error}</Alert>}
      {oidc && (
        <div className="flex flex-col gap-2">
          <OidcButton name={oidc.name} callbackUrl={callbackUrl} variant={passwordLogin ? "secondary" : "primary"} className="w-full" />
          {!passwordLogin && <p className="text-sm text-slate-600">Passwords are turned off on this server: everyone signs in with {oidc.name}.</p>}
        </div>
      )}
      {oidc && passwordLogin && (
        <p className="flex items-center gap-3 text-sm text-slate-500" aria-hidden="true">
          <span className="h-px flex-1 bg-slate-200" />
          or with your email
          <span className="h-px flex-1 bg-slate-200" />
        </p>
      )}
      {passwordLogin && <LoginForm callbackUrl={callbackUrl} />}
      {passwordLogin && (
        <p className="text-sm text-slate-600">
          New here?{" "}
          <Link href="/register" className="font-medium text-blue-700 underline">
            Create an account
          </Link>
        </p>
      )}
    </main>
  );
}
