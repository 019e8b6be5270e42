import type { Metadata } from "next";
import { Prefetched } from "@/app/dashboard/prefetched";
import { SettingsTabs } from "@/components/dashboard/settings/settings-tabs";
import { getConfig } from "@/lib/config";
import { SettingsClient } from "./client";

export const metadata: Metadata = { title: "Settings" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// ?error= and ?linked=1: how linking a company sign-in from the Sign-in section came back.
export default async function SettingsPage({ searchParams }: Props) {
  const { error, linked } = await searchParams;
  return (
    <>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
        <p className="text-slate-600">Your name, picture and timezone, as guests see them, and how you sign in.</p>
      </div>
      <SettingsTabs current="/dashboard/settings" />
      <Prefetched resources={["me", "identities"]}>
        <SettingsClient appUrl={getConfig().appUrl} signInError={typeof error === "string" ? error : undefined} linked={linked === "1"} />
      </Prefetched>
    </>
  );
}
