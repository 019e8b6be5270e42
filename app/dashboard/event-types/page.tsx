import type { Metadata } from "next";
import Link from "next/link";
import { EventTypeList } from "@/components/dashboard/event-types/event-type-list";
import { buttonClass } from "@/components/ui/button";
import { Prefetched } from "@/app/dashboard/prefetched";

export const metadata: Metadata = { title: "Event types" };

export default function EventTypesPage() {
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Event types</h1>
        <Link href="/dashboard/event-types/new" className={buttonClass()}>
          New event type
        </Link>
      </div>
      <Prefetched resources={["eventTypes", "me"]}>
        <EventTypeList />
      </Prefetched>
    </>
  );
}
