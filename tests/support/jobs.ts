import { eq } from "drizzle-orm";
import { onTestFinished } from "vitest";
import { getDb } from "@/lib/store/database";
import { outboxJobs } from "@/db/schema";
import { getConfig, setConfig, type Config } from "@/lib/config";
import type { WebhookDeliveryOptions } from "@/lib/jobs/webhook-delivery";
import { JobWorker, type WorkerOptions } from "@/lib/jobs/worker";

// The outbox worker as tests run it: the service's own handlers on the test database, stepped
// with runDueJobs(now) rather than its background loop, with jitter fixed (random 0.5: the
// plain schedule) so retry times are exact.

export async function testWorker(options: Partial<WorkerOptions> & { webhooks?: WebhookDeliveryOptions } = {}): Promise<JobWorker> {
  // Imported here, not above: the handlers bring the calendar clients (googleapis, tsdav), which
  // files that only `configure` do not need.
  const { defaultJobHandlers } = await import("@/lib/jobs/handlers");
  const { webhooks, ...rest } = options;
  return new JobWorker({ db: await getDb(), handlers: defaultJobHandlers({ webhooks: { timeoutMs: 5_000, ...webhooks } }), random: () => 0.5, ...rest });
}

/** Changes the process configuration for the current test; the next test starts from the old one. */
export function configure(changes: Partial<Config>): void {
  const before = getConfig();
  setConfig({ ...before, ...changes });
  onTestFinished(() => setConfig(before));
}

export async function jobsOfKind(kind: string) {
  return (await getDb()).select().from(outboxJobs).where(eq(outboxJobs.kind, kind));
}
