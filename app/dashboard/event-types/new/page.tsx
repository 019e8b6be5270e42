import type { Metadata } from "next";
import { EventTypeEditor } from "@/components/dashboard/event-types/event-type-editor";

export const metadata: Metadata = { title: "New event type" };

export default function NewEventTypePage() {
  return <EventTypeEditor owner={{ kind: "me" }} />;
}
