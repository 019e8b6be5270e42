import type { Metadata } from "next";
import { AvailabilityClient } from "./client";
import { Prefetched } from "@/app/dashboard/prefetched";
import { HolidaysSection } from "@/components/dashboard/time-off/holidays-section";
import { requireHost } from "@/lib/dashboard/current-host";
import { holidayPlaces } from "@/lib/services/time-off/holidays";

export const metadata: Metadata = { title: "Availability" };

export default async function AvailabilityPage() {
  const host = await requireHost();
  return (
    <>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Availability</h1>
        <p className="text-slate-600">When guests can book you: your schedules of weekly hours and dates that differ, and how soon and how far ahead.</p>
      </div>
      <Prefetched resources={["availability", "schedules", "holidays"]}>
        <AvailabilityClient />
        {/* The countries come with the page (some 200, with their regions: about 8 KB), named in
            the host's language: no route of their own (decisions §21). */}
        <HolidaysSection places={holidayPlaces(host.language)} />
      </Prefetched>
    </>
  );
}
