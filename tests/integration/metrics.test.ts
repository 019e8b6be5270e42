import { afterEach, describe, expect, it } from "vitest";
import { GET as metrics } from "@/app/metrics/route";
import { getConfig, setConfig } from "@/lib/config";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost } from "../support/factories";

withTestDatabase();

const scrape = (headers: Record<string, string> = {}) => metrics(new Request("http://booking.test/metrics", { headers }));

describe("/metrics", () => {
  const original = getConfig();
  afterEach(() => setConfig(original));

  it("is off by default", async () => {
    expect((await scrape()).status).toBe(404);
  });

  it("counts requests by route and status, booking outcomes, slot cache lookups and the outbox", async () => {
    setConfig({ ...original, metrics: { enabled: true, token: undefined } });
    const host = await createHost();
    const et = await createEventType(host);
    const date = dateIn(3, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    await getSlots(host, et.slug, date);
    expect((await book(host, et.slug, slot!.startTime)).status).toBe(201);
    expect((await book(host, et.slug, slot!.startTime)).status).toBe(409);

    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toMatch(/http_requests_total\{method="POST",route="\/api\/v1\/public\/\{username\}\/\{eventSlug\}\/bookings",status="201"\} \d+/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/api\/v1\/public\/\{username\}\/\{eventSlug\}\/slots"\} \d+/);
    expect(text).toMatch(/booking_outcomes_total\{outcome="created"\} [1-9]/);
    expect(text).toMatch(/booking_outcomes_total\{outcome="slot_unavailable"\} [1-9]/);
    expect(text).toMatch(/slot_cache_lookups_total\{cache="response",result="hit"\} [1-9]/);
    expect(text).toMatch(/outbox_jobs\{status="pending"\} [1-9]/);
    expect(text).toMatch(/outbox_oldest_due_age_seconds \d/);
  });

  it("wants the bearer token when METRICS_TOKEN is set", async () => {
    setConfig({ ...original, metrics: { enabled: true, token: "a-token-of-sixteen-or-more" } });
    expect((await scrape()).status).toBe(401);
    expect((await scrape({ authorization: "Bearer wrong-token-of-some-length" })).status).toBe(401);
    expect((await scrape({ authorization: "Bearer a-token-of-sixteen-or-more" })).status).toBe(200);
  });
});
