import type { Metadata } from "next";
import { DashboardHome } from "@/components/dashboard/home";
import { requireHost } from "@/lib/dashboard/current-host";
import { Prefetched } from "@/app/dashboard/prefetched";
import { ANY, UPCOMING } from "@/lib/dashboard/home-queries";
import type { Resource } from "@/lib/dashboard/prefetch";
import { hostPageUrl } from "@/lib/links";
import { todayIn } from "@/lib/services/time-off/store";

export const metadata: Metadata = { title: "Home" };

export default async function DashboardHomePage() {
  const host = await requireHost();
  // What the home and its getting-started list read, in the first HTML.
  const resources: Resource[] = ["me", "eventTypes", "availability", "calendarConnections", { bookings: UPCOMING }, { bookings: ANY }, "teamInvitations", "outOfOffice"];
  return (
    <Prefetched resources={resources}>
      <DashboardHome publicUrl={hostPageUrl(host.username)} userId={host.id} hostZone={host.timezone} today={todayIn(host.timezone)} />
    </Prefetched>
  );
}
