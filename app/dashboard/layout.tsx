import type { Metadata } from "next";
import type { ReactNode } from "react";
import { DashboardNav } from "@/components/dashboard/nav";
import { DashboardProviders } from "@/components/dashboard/providers";
import { requireHost } from "@/lib/auth/current-host";
import { hostPageUrl } from "@/lib/links";

export const metadata: Metadata = { title: { template: "%s · Dashboard", default: "Dashboard" }, robots: { index: false } };
export const dynamic = "force-dynamic";

// The host's shell: who is signed in, the navigation, and TanStack Query for the pages below,
// which read and write through /api/v1 with the session cookie.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const host = await requireHost();
  return (
    <div className="min-h-screen">
      <DashboardNav fullName={host.fullName} publicUrl={hostPageUrl(host.username)} />
      <DashboardProviders>
        <main className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6">{children}</main>
      </DashboardProviders>
    </div>
  );
}
