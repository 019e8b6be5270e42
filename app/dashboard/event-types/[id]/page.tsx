import type { Metadata } from "next";
import { EditEventType } from "@/components/dashboard/event-types/edit-event-type";
import { Prefetched } from "@/app/dashboard/prefetched";

export const metadata: Metadata = { title: "Edit event type" };

export default async function EditEventTypePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Prefetched resources={["eventTypes", "me"]}>
      <EditEventType id={id} />
    </Prefetched>
  );
}
