import type { Metadata } from "next";
import { EventTypeForm } from "@/components/dashboard/event-types/event-type-form";

export const metadata: Metadata = { title: "New event type" };

export default function NewEventTypePage() {
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">New event type</h1>
      <EventTypeForm />
    </>
  );
}
