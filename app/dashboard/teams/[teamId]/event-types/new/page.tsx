import type { Metadata } from "next";
import { Prefetched } from "@/app/dashboard/prefetched";
import { EventTypeEditor } from "@/components/dashboard/event-types/event-type-editor";
import { requireHost } from "@/lib/dashboard/current-host";

export const metadata: Metadata = { title: "New team event type" };

export default async function NewTeamEventTypePage({ params }: { params: Promise<{ teamId: string }> }) {
  const [{ teamId }, host] = await Promise.all([params, requireHost()]);
  return (
    <Prefetched resources={[{ team: teamId }, "me", { payments: {} }]}>
      <EventTypeEditor owner={{ kind: "team", teamId, myUserId: host.id }} />
    </Prefetched>
  );
}
