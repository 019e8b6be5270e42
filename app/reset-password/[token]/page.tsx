import type { Metadata } from "next";
import { PasswordsOff } from "@/components/auth/passwords-off";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";
import { getConfig } from "@/lib/config";
import { oidcName } from "@/lib/services/accounts/password-policy";

export const metadata: Metadata = { title: "Set a new password", referrer: "no-referrer" };

type Props = { params: Promise<{ token: string }> };

// /reset-password/{token}: the emailed link. The token is checked when the form is sent, so
// opening the link (a mail scanner fetching it) does not spend it.
export default async function ResetPasswordPage({ params }: Props) {
  const { token } = await params;
  const { passwordLogin } = getConfig();
  if (!passwordLogin) return <PasswordsOff title="Set a new password" oidcName={oidcName()} />;
  return (
    <main className="mx-auto flex w-full max-w-md flex-col gap-6 px-6 py-16 sm:py-24">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">Set a new password</h1>
        <p className="text-slate-600">Choose a new password for your account. Every device signed in with the old one is signed out.</p>
      </div>
      <ResetPasswordForm token={token} />
    </main>
  );
}
