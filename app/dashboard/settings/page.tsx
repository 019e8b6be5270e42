import type { Metadata } from "next";
import { Prefetched } from "@/app/dashboard/prefetched";
import { SettingsTabs } from "@/components/dashboard/settings/settings-tabs";
import { getConfig } from "@/lib/config";
import { SettingsClient } from "./client";

export const metadata: Metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
        <p className="text-slate-600">Your name, picture and timezone, as guests see them.</p>
      </div>
      <SettingsTabs current="/dashboard/settings" />
      <Prefetched resources={["me"]}>
        <SettingsClient appUrl={getConfig().appUrl} />
      </Prefetched>
    </>
  );
}
