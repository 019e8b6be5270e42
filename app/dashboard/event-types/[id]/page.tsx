import type { Metadata } from "next";
import { EventTypeEditor } from "@/components/dashboard/event-types/event-type-editor";
import { Prefetched } from "@/app/dashboard/prefetched";

export const metadata: Metadata = { title: "Edit event type" };

export default async function EditEventTypePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Prefetched resources={["eventTypes", "me", { payments: {} }, { oneTimeLinks: { eventTypeId: id } }]}>
      <EventTypeEditor owner={{ kind: "me" }} eventTypeId={id} />
    </Prefetched>
  );
}
