import type { Metadata } from "next";
import { ConfirmEmailForm } from "@/components/auth/confirm-email-form";

export const metadata: Metadata = { title: "Confirm your new email", referrer: "no-referrer" };

type Props = { params: Promise<{ token: string }> };

// /confirm-email/{token}: the link mailed to a new address (POST /me/email).
export default async function ConfirmEmailPage({ params }: Props) {
  const { token } = await params;
  return (
    <main className="mx-auto flex w-full max-w-md flex-col gap-6 px-6 py-16 sm:py-24">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">Confirm your new email</h1>
        <p className="text-slate-600">Your account will use this address to log in and for its emails.</p>
      </div>
      <ConfirmEmailForm token={token} />
    </main>
  );
}
