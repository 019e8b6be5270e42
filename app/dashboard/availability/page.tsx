import type { Metadata } from "next";
import { AvailabilityClient } from "./client";
import { Prefetched } from "@/app/dashboard/prefetched";

export const metadata: Metadata = { title: "Availability" };

export default function AvailabilityPage() {
  return (
    <>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Availability</h1>
        <p className="text-slate-600">When guests can book you: your schedules of weekly hours and dates that differ, and how soon and how far ahead.</p>
      </div>
      <Prefetched resources={["availability", "schedules"]}>
        <AvailabilityClient />
      </Prefetched>
    </>
  );
}
