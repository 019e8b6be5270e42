import type { Metadata } from "next";
import { Prefetched } from "@/app/dashboard/prefetched";
import { ApiKeysPage } from "@/components/dashboard/api-keys/api-keys-page";
import { SettingsTabs } from "@/components/dashboard/settings/settings-tabs";

export const metadata: Metadata = { title: "API keys" };

export default function DashboardApiKeysPage() {
  return (
    <>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
      </div>
      <SettingsTabs current="/dashboard/settings/api-keys" />
      <Prefetched resources={["me", "apiKeys"]}>
        <ApiKeysPage />
      </Prefetched>
    </>
  );
}
