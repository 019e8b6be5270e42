import "server-only";
// Webhooks: the host's endpoints (decisions §10). One verb per file; delivery is lib/jobs.
export { createWebhook, MAX_WEBHOOKS_PER_HOST } from "./create";
export { listWebhooks } from "./list";
export { updateWebhook } from "./update";
export { deleteWebhook } from "./delete";
export { rotateWebhookSecret, PREVIOUS_SECRET_TTL_MS } from "./rotate-secret";
export { sendTestEvent } from "./send-test";
export { listDeliveries } from "./deliveries";
export { getWebhookForHostOrThrow } from "./store";
