import type { Metadata } from "next";
import { BookingWidget } from "@/components/booking/booking-widget";
import { EventSummary } from "@/components/booking/event-summary";
import { getDb } from "@/db";
import { slotsPath } from "@/lib/api-client/public";
import { slotsPrefetchScript } from "@/lib/api-client/slots-prefetch";
import { orNotFoundPage } from "@/lib/pages";
import { getPublicEventTypeCached } from "@/lib/services/schedule-cache";

// /{username}/{slug}: the guest's booking page. The page renders the event; the widget lists
// slots and books through the public API, the same one any other client uses.

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ username: string; slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

async function load(username: string, slug: string) {
  return orNotFoundPage(getPublicEventTypeCached(await getDb(), username, slug));
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { username, slug } = await params;
  const { host, eventType } = await load(username, slug);
  return { title: `${eventType.title} with ${host.fullName}` };
}

export default async function BookingPage({ params, searchParams }: Params) {
  const { username, slug } = await params;
  // ?embed=1: inside another site's iframe (next.config.ts lets any site frame this page then):
  // no page margins, a compact card, and the parent page hears about the booking.
  const embed = (await searchParams).embed === "1";
  const { host, eventType } = await load(username, slug);
  return (
    <main className={embed ? "min-h-screen w-full bg-white" : "mx-auto w-full max-w-5xl px-3 py-6 sm:px-6 sm:py-12"}>
      {/* First in the page: the guest's first slots request leaves while the bundles load. */}
      <script dangerouslySetInnerHTML={{ __html: slotsPrefetchScript({ path: slotsPath(username, slug), windowDays: host.maxAdvanceDays }) }} />
      <div
        className={`grid overflow-hidden bg-white lg:grid-cols-[18rem_minmax(0,1fr)] ${embed ? "" : "rounded-xl border border-slate-200 shadow-sm"}`}
      >
        <EventSummary
          compact={embed}
          host={{ name: host.fullName, avatarUrl: host.avatarUrl }}
          event={{ title: eventType.title, durationMinutes: eventType.durationMinutes, location: eventType.location, description: eventType.description }}
        />
        <div className={`min-w-0 ${embed ? "p-3 sm:p-4" : "p-4 sm:p-6"}`}>
          <BookingWidget
            username={username}
            slug={slug}
            hostTimezone={host.timezone}
            event={{ title: eventType.title, hostName: host.fullName, location: eventType.location }}
            questions={eventType.customQuestions.map((q) => ({ id: q.id, label: q.label, required: q.required, type: q.type }))}
            windowDays={host.maxAdvanceDays}
            embed={embed}
          />
        </div>
      </div>
    </main>
  );
}
