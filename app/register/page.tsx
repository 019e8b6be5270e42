import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { PasswordsOff } from "@/components/auth/passwords-off";
import { RegisterForm } from "@/components/auth/register-form";
import { Alert } from "@/components/ui/alert";
import { currentHost } from "@/lib/dashboard/current-host";
import { getConfig } from "@/lib/config";
import { oidcName } from "@/lib/services/accounts/password-policy";
import { invitationOfSignUpToken } from "@/lib/services/teams";
import { getDb } from "@/lib/store/database";

export const metadata: Metadata = { title: "Create your account" };
export const dynamic = "force-dynamic";

// /register: a new host's account; a signed-in host has one and goes to the dashboard (to its
// invitations when the link was a team invitation's). ?invitation= carries the secret of a team
// invitation's sign-up link: the page names the team and who invited, and the account is made
// with it (lib/services/teams/email-invitations.ts decides what it joins).
export default async function RegisterPage({ searchParams }: { searchParams: Promise<{ invitation?: string | string[] }> }) {
  const { invitation: param } = await searchParams;
  const token = typeof param === "string" && param.length <= 200 ? param : undefined;
  if (await currentHost()) redirect(token ? "/dashboard/teams" : "/dashboard");
  const { passwordLogin } = getConfig();
  if (!passwordLogin) return <PasswordsOff title="Create your account" oidcName={oidcName()} />;
  const invitation = token ? await invitationOfSignUpToken(await getDb(), token) : undefined;
  return (
    <main className="mx-auto flex w-full max-w-md flex-col gap-6 px-6 py-16 sm:py-24">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">Create your account</h1>
        <p className="text-slate-600">Share one link, let guests pick a time that suits you both.</p>
      </div>
      {invitation && (
        <Alert tone="info">
          <p className="break-words">
            {invitation.inviterName ?? "Someone"} invited you to join the team {invitation.teamName}.
          </p>
          <p className="mt-1 text-sm">Create your account to answer. With {invitation.email}, you join the team as soon as it is made.</p>
        </Alert>
      )}
      {token && !invitation && (
        <Alert tone="warning">
          This invitation link no longer works: it was used, withdrawn or has expired. You can still create an account, and ask the team&apos;s owner to invite you again.
        </Alert>
      )}
      <RegisterForm appUrl={getConfig().appUrl} invitation={invitation && token ? { token, email: invitation.email } : undefined} />
      <p className="text-sm text-slate-600">
        Already have an account?{" "}
        <Link href="/login" className="font-medium text-blue-700 underline">
          Log in
        </Link>
      </p>
    </main>
  );
}
