import type { Metadata } from "next";
import { CalendarsPage } from "@/components/dashboard/calendars/calendars-page";
import { Prefetched } from "@/app/dashboard/prefetched";

export const metadata: Metadata = { title: "Calendars" };

type SearchParams = Record<string, string | string[] | undefined>;

/** The first value of a query parameter, when it is there at all. */
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

// The OAuth callback comes back here with ?connected={provider} or ?error={reason}.
export default async function DashboardCalendarsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Calendars</h1>
      <Prefetched resources={["me", "calendarConnections"]}>
        <CalendarsPage flags={{ connected: first(params.connected), error: first(params.error) }} />
      </Prefetched>
    </>
  );
}
