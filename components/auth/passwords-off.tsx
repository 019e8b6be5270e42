import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";

/** What the password pages (register, forgot, reset) say when PASSWORD_LOGIN=off: where to sign in instead. */
export function PasswordsOff({ title, oidcName }: { title: string; oidcName: string }) {
  return (
    <main className="mx-auto flex w-full max-w-md flex-col gap-6 px-6 py-16 sm:py-24">
      <h1 className="text-3xl font-semibold tracking-tight">{title}</h1>
      <Alert tone="info">
        Passwords are turned off on this server: everyone signs in with {oidcName}. Your first sign-in with it makes your account, if your
        administrator allows new accounts.
      </Alert>
      <Link href="/login" className={`${buttonClass()} self-start`}>
        Go to sign-in
      </Link>
    </main>
  );
}
