import type { Metadata } from "next";
import { Prefetched } from "@/app/dashboard/prefetched";
import { TeamsPage } from "@/components/dashboard/teams/teams-page";
import { requireHost } from "@/lib/dashboard/current-host";
import { getConfig } from "@/lib/config";

export const metadata: Metadata = { title: "Teams" };

export default async function DashboardTeamsPage() {
  const host = await requireHost();
  return (
    <>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Teams</h1>
        <p className="text-slate-600">One booking link for several hosts: round robin spreads bookings among them, collective books them all together.</p>
      </div>
      <Prefetched resources={["teams", "teamInvitations"]}>
        <TeamsPage appUrl={getConfig().appUrl} myUserId={host.id} />
      </Prefetched>
    </>
  );
}
