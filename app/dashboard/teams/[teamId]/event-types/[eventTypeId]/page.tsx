import type { Metadata } from "next";
import { Prefetched } from "@/app/dashboard/prefetched";
import { EditTeamEventType } from "@/components/dashboard/teams/team-event-type-editor";
import { requireHost } from "@/lib/dashboard/current-host";

export const metadata: Metadata = { title: "Edit team event type" };

export default async function EditTeamEventTypePage({ params }: { params: Promise<{ teamId: string; eventTypeId: string }> }) {
  const [{ teamId, eventTypeId }, host] = await Promise.all([params, requireHost()]);
  return (
    <Prefetched resources={[{ team: teamId }, { teamEventTypes: teamId }]}>
      <EditTeamEventType teamId={teamId} eventTypeId={eventTypeId} myUserId={host.id} />
    </Prefetched>
  );
}
