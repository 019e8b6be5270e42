import type { Metadata } from "next";
import { Prefetched } from "@/app/dashboard/prefetched";
import { EventTypeEditor } from "@/components/dashboard/event-types/event-type-editor";
import { requireHost } from "@/lib/dashboard/current-host";

export const metadata: Metadata = { title: "Edit team event type" };

export default async function EditTeamEventTypePage({ params }: { params: Promise<{ teamId: string; eventTypeId: string }> }) {
  const [{ teamId, eventTypeId }, host] = await Promise.all([params, requireHost()]);
  return (
    <Prefetched resources={[{ team: teamId }, { teamEventTypes: teamId }, "me", { payments: {} }, { oneTimeLinks: { eventTypeId, teamId } }]}>
      <EventTypeEditor owner={{ kind: "team", teamId, myUserId: host.id }} eventTypeId={eventTypeId} />
    </Prefetched>
  );
}
