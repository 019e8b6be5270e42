import type { Metadata } from "next";
import { WebhooksPage } from "@/components/dashboard/webhooks/webhooks-page";
import { Prefetched } from "@/app/dashboard/prefetched";

export const metadata: Metadata = { title: "Webhooks" };

export default function DashboardWebhooksPage() {
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Webhooks</h1>
      <Prefetched resources={["me", "webhooks"]}>
        <WebhooksPage />
      </Prefetched>
    </>
  );
}
