"use client";

import { useQuery } from "@tanstack/react-query";
import { LoadError, Loading } from "@/components/dashboard/query-state";
import { ProfileForm } from "@/components/dashboard/settings/profile-form";
import { meQuery } from "@/lib/browser/api-client/account";

export function SettingsClient({ appUrl }: { appUrl: string }) {
  const me = useQuery(meQuery());
  if (me.isPending) return <Loading>Loading your profile…</Loading>;
  if (me.isError) return <LoadError what="your profile" error={me.error} onRetry={() => void me.refetch()} />;
  return <ProfileForm profile={me.data} appUrl={appUrl} />;
}
