import type { Metadata } from "next";
import { BookingWidget } from "@/components/booking/booking-widget";
import { QueryProvider } from "@/components/providers/query-provider";
import { Container } from "@/components/ui/container";
import { getDb } from "@/db";
import { orNotFoundPage } from "@/lib/pages";
import { getPublicEventTypeCached } from "@/lib/services/schedule-cache";

// /{username}/{slug}: the guest's booking page. The page renders the event; the widget lists
// slots and books through the public API, the same one any other client uses.

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ username: string; slug: string }> };

async function load(username: string, slug: string) {
  return orNotFoundPage(getPublicEventTypeCached(await getDb(), username, slug));
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { username, slug } = await params;
  const { host, eventType } = await load(username, slug);
  return { title: `${eventType.title} with ${host.fullName}` };
}

export default async function BookingPage({ params }: Params) {
  const { username, slug } = await params;
  const { host, eventType } = await load(username, slug);
  return (
    <Container className="max-w-3xl">
      <header className="flex flex-col gap-2">
        <p className="text-sm text-slate-500">{host.fullName}</p>
        <h1 className="text-3xl font-semibold tracking-tight">{eventType.title}</h1>
        <p className="text-slate-600">
          {eventType.durationMinutes} minutes{eventType.location ? ` · ${eventType.location}` : ""}
        </p>
        {eventType.description && <p className="whitespace-pre-line text-slate-700">{eventType.description}</p>}
      </header>
      <QueryProvider>
        <BookingWidget
          username={username}
          slug={slug}
          hostTimezone={host.timezone}
          questions={eventType.customQuestions.map((q) => ({ id: q.id, label: q.label, required: q.required }))}
        />
      </QueryProvider>
    </Container>
  );
}
