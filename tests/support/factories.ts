import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { outboxJobs } from "@/db/schema";
import { WELCOME_EMAIL } from "@/lib/outbox/kinds";
import { getDb } from "@/lib/store/database";
import { api } from "./api";

let counter = 0;
/** A name no other test (or test run against a shared PostgreSQL) uses. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${randomBytes(4).toString("hex")}-${counter}`;
}

export type TestHost = { id: string; email: string; username: string; password: string; token: string; timezone: string };

let hostCounter = 0;

/**
 * Registers and logs in a fresh host through the API (its welcome email dropped unless `welcome`), from a client address of its own (as a
 * real host would): the per-address limits on sign-ups and logins never see one test's hosts as
 * one flood.
 */
export async function createHost(overrides: { timezone?: string; fullName?: string; starter?: boolean; welcome?: boolean } = {}): Promise<TestHost> {
  hostCounter += 1;
  const from = { headers: { "x-forwarded-for": `198.18.${(process.pid % 250) + 1}.${hostCounter % 250}` } };
  const username = unique("host");
  const email = `${username}@example.com`;
  const password = "correct horse battery";
  const timezone = overrides.timezone ?? "America/New_York";
  const reg = await api.post("/auth/register", { email, password, fullName: overrides.fullName ?? "Test Host", username, timezone }, from);
  expect(reg.status, JSON.stringify(reg.body)).toBe(201);
  const login = await api.post("/auth/login", { email, password }, from);
  expect(login.status).toBe(200);
  const host = { id: reg.body.id, email, username, password, token: login.body.accessToken, timezone };
  // A host as after their welcome email went out: the mails and jobs a test counts are its own.
  if (overrides.welcome !== true) {
    await (await getDb()).delete(outboxJobs).where(and(eq(outboxJobs.kind, WELCOME_EMAIL), sql`${outboxJobs.payload} ->> 'userId' = ${host.id}`));
  }
  // Every new host gets a starter event type; tests about the list itself start without it.
  if (overrides.starter === false) {
    for (const e of (await api.get("/me/event-types", { token: host.token })).body.data as { id: string }[]) {
      expect((await api.delete(`/me/event-types/${e.id}`, { token: host.token })).status).toBe(204);
    }
  }
  return host;
}

export async function createEventType(host: TestHost, fields: Record<string, unknown> = {}) {
  const res = await api.post("/me/event-types", { slug: unique("meet"), title: "Intro call", durationMinutes: 30, ...fields }, { token: host.token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
