import type { Metadata } from "next";
import { DashboardHome } from "@/components/dashboard/home";
import { requireHost } from "@/lib/auth/current-host";
import { getConfig } from "@/lib/config";

export const metadata: Metadata = { title: "Home" };

export default async function DashboardHomePage() {
  const host = await requireHost();
  return <DashboardHome publicUrl={`${getConfig().appUrl}/${host.username}`} userId={host.id} />;
}
