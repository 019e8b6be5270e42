import type { Metadata } from "next";
import { DashboardHome } from "@/components/dashboard/home";
import { requireHost } from "@/lib/auth/current-host";
import { getConfig } from "@/lib/config";
import { Prefetched } from "@/components/dashboard/prefetched";
import { ANY, UPCOMING } from "@/lib/dashboard/home-queries";
import type { Resource } from "@/lib/dashboard/prefetch";

export const metadata: Metadata = { title: "Home" };

export default async function DashboardHomePage() {
  const host = await requireHost();
  // What the home and its getting-started list read, in the first HTML.
  const resources: Resource[] = ["me", "eventTypes", "availability", "calendarConnections", { bookings: UPCOMING }, { bookings: ANY }];
  return (
    <Prefetched resources={resources}>
      <DashboardHome publicUrl={`${getConfig().appUrl}/${host.username}`} userId={host.id} />
    </Prefetched>
  );
}
