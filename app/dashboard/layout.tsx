import type { Metadata } from "next";
import type { ReactNode } from "react";
import { BrokenCalendarBanner } from "@/components/dashboard/calendars/broken-calendar-banner";
import { DashboardNav } from "@/components/dashboard/nav";
import { DashboardProviders } from "@/components/dashboard/providers";
import { Prefetched } from "@/app/dashboard/prefetched";
import { requireHost } from "@/lib/dashboard/current-host";
import { REQUESTS_WAITING } from "@/lib/dashboard/requests-waiting";
import { hostPageUrl } from "@/lib/links";

export const metadata: Metadata = { title: { template: "%s · Dashboard", default: "Dashboard" }, robots: { index: false } };
export const dynamic = "force-dynamic";

// The host's shell: who is signed in, the navigation, and TanStack Query for it and the pages
// below, which read and write through /api/v1 with the session cookie.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const host = await requireHost();
  return (
    <div className="min-h-screen">
      <DashboardProviders>
        {/* The count of requests waiting (the nav's badge, the home's card, the Requests tab's count)
            is in the first HTML of every page: its boundary holds the pages too, so it is
            hydrated before any of them renders. So are the calendar connections and the profile's
            zone, for the banner of a broken calendar (decisions §21). */}
        <Prefetched resources={[{ bookings: REQUESTS_WAITING }, "calendarConnections", "me"]}>
          <DashboardNav fullName={host.fullName} publicUrl={hostPageUrl(host.username)} />
          <main className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6">
            <BrokenCalendarBanner />
            {children}
          </main>
        </Prefetched>
      </DashboardProviders>
    </div>
  );
}
