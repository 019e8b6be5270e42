import "server-only";
import { getConfig } from "@/lib/config";
import { recordDeliveryAttempt, signingSecrets, webhookToDeliver } from "@/lib/services/webhooks/delivery";
import { DeliveryError, postWebhook, type Resolver } from "@/lib/webhooks/send";
import { signatureHeader } from "@/lib/webhooks/signing";
import { WEBHOOK_DELIVERY } from "@/lib/outbox/kinds";
import type { JobHandler, JobOutcome, RecordAttempt } from "./types";
import { WebhookDeliveryJob } from "@/lib/outbox/payloads";

// One message to one endpoint (Standard Webhooks): signed afresh on each attempt, with the same
// webhook-id and body every time. 2xx delivers; 410 Gone turns the endpoint off for good; any
// other answer, a timeout or a refused address is retried with backoff. Every attempt is a row
// in webhook_deliveries, written with the job's settlement.

export type WebhookDeliveryOptions = {
  /** Per attempt, DNS included (15 s). */
  timeoutMs?: number;
  /** Host name resolution (tests substitute one); the address policy applies to what it returns. */
  resolve?: Resolver;
};

const USER_AGENT = "Booking-Webhooks/1.0 (+https://www.standardwebhooks.com)";

type Attempt = { status: "succeeded" | "failed"; responseStatus: number | null; error: string | null; durationMs: number | null };

function recorder(job: WebhookDeliveryJob, attempt: number, now: number, result: Attempt, disable?: string): RecordAttempt {
  return (tx, { nextRunAt }) => recordDeliveryAttempt(tx, { ...job, attempt, ...result, nextRetryAt: nextRunAt, at: now, disable });
}

export function webhookDelivery(options: WebhookDeliveryOptions = {}): JobHandler {
  const timeoutMs = options.timeoutMs ?? 15_000;
  return {
    kind: WEBHOOK_DELIVERY,
    async run({ db, job, now }): Promise<JobOutcome> {
      const message = WebhookDeliveryJob.parse(job.payload);
      const webhook = await webhookToDeliver(db, message.webhookId);
      // Deleted or turned off since the event: nothing to send, nothing to retry.
      if (!webhook) return { status: "done" };

      const secrets = signingSecrets(webhook, now);
      if (!secrets) {
        const error = "The signing secret can no longer be opened (was ENCRYPTION_KEY replaced?): rotate the secret";
        return { status: "failed", error, record: recorder(message, job.attempt, now, { status: "failed", responseStatus: null, error, durationMs: null }) };
      }
      // The signature's timestamp is the wall clock: receivers compare it with theirs.
      const signedAt = new Date();
      const headers = {
        "user-agent": USER_AGENT,
        "webhook-id": message.messageId,
        "webhook-timestamp": String(Math.floor(signedAt.getTime() / 1000)),
        "webhook-signature": signatureHeader(secrets, message.messageId, signedAt, message.body),
      };
      try {
        const answer = await postWebhook(webhook.url, message.body, headers, {
          timeoutMs,
          allowPrivate: getConfig().webhooksAllowPrivate,
          resolve: options.resolve,
        });
        const attempt = { responseStatus: answer.status, durationMs: answer.durationMs };
        if (answer.status >= 200 && answer.status < 300) {
          return { status: "done", record: recorder(message, job.attempt, now, { status: "succeeded", error: null, ...attempt }) };
        }
        if (answer.status === 410) {
          const error = "The endpoint answered 410 Gone: it is turned off and will get no more deliveries";
          return { status: "failed", error, record: recorder(message, job.attempt, now, { status: "failed", error, ...attempt }, error) };
        }
        const error = `The endpoint answered ${answer.status}`;
        return { status: "retry", error, record: recorder(message, job.attempt, now, { status: "failed", error, ...attempt }) };
      } catch (failure) {
        if (!(failure instanceof DeliveryError)) throw failure;
        return {
          status: "retry",
          error: failure.message,
          record: recorder(message, job.attempt, now, { status: "failed", responseStatus: null, error: failure.message, durationMs: failure.durationMs }),
        };
      }
    },
  };
}
