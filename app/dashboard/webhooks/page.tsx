import type { Metadata } from "next";
import { WebhooksPage } from "@/components/dashboard/webhooks/webhooks-page";
import { Prefetched } from "@/app/dashboard/prefetched";
import { requireHost } from "@/lib/dashboard/current-host";

export const metadata: Metadata = { title: "Webhooks" };

export default async function DashboardWebhooksPage() {
  const host = await requireHost();
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Webhooks</h1>
      {/* The event types and teams name what each webhook hears of; a team's own event types load in the browser. */}
      <Prefetched resources={["me", "webhooks", "eventTypes", "teams"]}>
        <WebhooksPage myUserId={host.id} />
      </Prefetched>
    </>
  );
}
