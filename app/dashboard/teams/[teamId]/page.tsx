import type { Metadata } from "next";
import { Prefetched } from "@/app/dashboard/prefetched";
import { TeamPage } from "@/components/dashboard/teams/team-page";
import { requireHost } from "@/lib/dashboard/current-host";
import { getConfig } from "@/lib/config";

export const metadata: Metadata = { title: "Team" };

export default async function DashboardTeamPage({ params }: { params: Promise<{ teamId: string }> }) {
  const [{ teamId }, host] = await Promise.all([params, requireHost()]);
  return (
    <Prefetched resources={["me", { team: teamId }, { teamEventTypes: teamId }]}>
      <TeamPage teamId={teamId} appUrl={getConfig().appUrl} myUserId={host.id} />
    </Prefetched>
  );
}
