import { randomUUID } from "node:crypto";
import { expect, type APIRequestContext } from "@playwright/test";
import { DateTime } from "luxon";

const api = (path: string) => `/api/v1${path}`;

/** A New York host with one open morning (10:00–12:00) five days out and an event type "consult" with a required question. */
export async function setUpHost(request: APIRequestContext) {
  const username = `flow-${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const password = "correct horse battery";
  expect((await request.post(api("/auth/register"), { data: { email, password, fullName: "Flow Host", username, timezone: "America/New_York" } })).status()).toBe(201);
  const token = (await (await request.post(api("/auth/login"), { data: { email, password } })).json()).accessToken as string;
  const headers = { authorization: `Bearer ${token}` };
  const date = DateTime.now().setZone("America/New_York").plus({ days: 5 }).toISODate()!;
  const availability = await request.put(api("/me/availability"), {
    headers,
    data: { minNoticeHours: 0, maxAdvanceDays: 30, weeklyRules: [], dateOverrides: [{ date, available: true, intervals: [{ startTime: "10:00", endTime: "12:00" }] }] },
  });
  expect(availability.status()).toBe(200);
  const et = await request.post(api("/me/event-types"), {
    headers,
    data: { slug: "consult", title: "Consultation", durationMinutes: 30, customQuestions: [{ id: "topic", label: "Topic", required: true }] },
  });
  expect(et.status()).toBe(201);
  return { username, headers, date };
}
