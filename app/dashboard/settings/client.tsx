"use client";

import { useQuery } from "@tanstack/react-query";
import { LoadError, Loading } from "@/components/dashboard/query-state";
import { ProfileForm } from "@/components/dashboard/settings/profile-form";
import { SignInSection } from "@/components/dashboard/settings/sign-in-section";
import { meQuery } from "@/lib/browser/api-client/account";
import { identitiesQuery } from "@/lib/browser/api-client/identities";

/** `signInError`, `linked`: how a company sign-in link from this page came back (?error=, ?linked=1). */
export function SettingsClient({ appUrl, signInError, linked }: { appUrl: string; signInError?: string | undefined; linked?: boolean }) {
  const me = useQuery(meQuery());
  const identities = useQuery(identitiesQuery());
  if (me.isPending || identities.isPending) return <Loading>Loading your profile…</Loading>;
  if (me.isError) return <LoadError what="your profile" error={me.error} onRetry={() => void me.refetch()} />;
  if (identities.isError) return <LoadError what="how you sign in" error={identities.error} onRetry={() => void identities.refetch()} />;
  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <ProfileForm profile={me.data} appUrl={appUrl} passwords={identities.data} />
      <SignInSection list={identities.data} error={signInError} linked={linked} />
    </div>
  );
}
