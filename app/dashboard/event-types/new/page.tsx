import type { Metadata } from "next";
import { Prefetched } from "@/app/dashboard/prefetched";
import { EventTypeEditor } from "@/components/dashboard/event-types/event-type-editor";

export const metadata: Metadata = { title: "New event type" };

// The Price section's facts (payments set up, the host's currency and language) in the first HTML.
export default function NewEventTypePage() {
  return (
    <Prefetched resources={["me", { payments: {} }]}>
      <EventTypeEditor owner={{ kind: "me" }} />
    </Prefetched>
  );
}
