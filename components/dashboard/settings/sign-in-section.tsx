"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { OidcButton } from "@/components/auth/oidc-button";
import { signInErrorWords } from "@/components/auth/sign-in-errors";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { meQuery } from "@/lib/browser/api-client/account";
import { identityKeys, unlinkIdentity, type IdentityDto, type IdentityListDto } from "@/lib/browser/api-client/identities";
import { momentWhen } from "@/lib/dashboard/when";

// Settings → Sign-in (decisions §22): the company sign-ins linked to the account, each with
// Unlink, and a button that links one more. The API refuses to unlink the last way in (409), and
// its words are shown as they come.

function IdentityRow({ identity, zone }: { identity: IdentityDto; zone: string }) {
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState(false);
  const unlink = useMutation({
    mutationFn: () => unlinkIdentity(identity.id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: identityKeys.all }),
    onSettled: () => setConfirm(false),
  });
  return (
    <li className="flex flex-col gap-2 rounded-md border border-slate-200 p-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-medium">
          {identity.provider}
          {identity.email && <span className="ml-2 break-all font-normal text-slate-700">{identity.email}</span>}
        </p>
        <p className="text-sm text-slate-600">
          Linked {momentWhen(identity.createdAt, zone)} · {identity.lastUsedAt ? `last used ${momentWhen(identity.lastUsedAt, zone)}` : "never used"}
        </p>
        {unlink.isError && <Alert tone="error">{unlink.error.message}</Alert>}
      </div>
      <Button variant="secondary" size="sm" className="self-start" onClick={() => setConfirm(true)}>
        Unlink<span className="sr-only"> {identity.email ?? identity.provider}</span>
      </Button>
      <ConfirmDialog
        open={confirm}
        title={`Unlink ${identity.provider}?`}
        confirmLabel="Unlink"
        pending={unlink.isPending}
        onConfirm={() => unlink.mutate()}
        onClose={() => setConfirm(false)}
      >
        <p>
          {identity.email ?? "This account"} will no longer sign you in here. You can link it again from this page.
        </p>
      </ConfirmDialog>
    </li>
  );
}

/** `error`: a link that came back refused (?error= on this page), `linked`: one that just worked. */
export function SignInSection({ list, error, linked }: { list: IdentityListDto; error?: string | undefined; linked?: boolean }) {
  const zone = useQuery(meQuery()).data?.timezone ?? "UTC";
  const name = list.oidc?.name ?? "Company sign-in";
  const refused = signInErrorWords(error, name, list.passwordLogin);
  const ways = list.passwordLogin && list.hasPassword ? "your email and password" : null;
  return (
    <section aria-labelledby="sign-in-heading" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <div className="flex flex-col gap-1">
        <h2 id="sign-in-heading" className="text-lg font-semibold">
          Sign-in
        </h2>
        <p className="text-sm text-slate-600">
          {list.oidc
            ? `Sign in with ${name}${ways ? ` as well as ${ways}` : ""}. Linking uses the ${name} account you sign in with next.`
            : "Company sign-in is not set up on this server."}
        </p>
      </div>
      {refused && <Alert tone="error">{refused}</Alert>}
      {linked && !refused && <Alert tone="success">{name} is linked: you can sign in with it from now on.</Alert>}
      {list.data.length > 0 ? (
        <ul className="flex flex-col gap-2">
          {list.data.map((identity) => (
            <IdentityRow key={identity.id} identity={identity} zone={zone} />
          ))}
        </ul>
      ) : (
        <p className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-600">
          {list.oidc ? `No ${name} account is linked yet.` : "No company sign-in is linked."}
        </p>
      )}
      {list.oidc && <OidcButton name={name} label={`Link ${name}`} callbackUrl="/dashboard/settings?linked=1" variant="secondary" className="self-start" />}
    </section>
  );
}
