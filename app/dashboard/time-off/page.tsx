import type { Metadata } from "next";
import Link from "next/link";
import { Prefetched } from "@/app/dashboard/prefetched";
import { TimeOffPage } from "@/components/dashboard/time-off/time-off-page";
import { requireHost } from "@/lib/dashboard/current-host";
import { todayIn } from "@/lib/services/time-off/store";

export const metadata: Metadata = { title: "Time off" };

export default async function DashboardTimeOffPage() {
  const host = await requireHost();
  return (
    <>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Time off</h1>
        <p className="text-slate-600">
          Days you are away: guests can book no time on them, whatever your hours say. Public holidays are set on the{" "}
          <Link href="/dashboard/availability#holidays" className="text-blue-700 underline">
            Availability
          </Link>{" "}
          page.
        </p>
      </div>
      <Prefetched resources={["outOfOffice"]}>
        <TimeOffPage today={todayIn(host.timezone)} />
      </Prefetched>
    </>
  );
}
