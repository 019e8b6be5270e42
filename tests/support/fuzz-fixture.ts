import { randomUUID } from "node:crypto";
import { api } from "./api";
import { createEventType, createHost, unique, type TestHost } from "./factories";

// A host the fuzzer can hammer: open every day, all day, so each whole and half hour from
// tomorrow on is a slot, and bookings can be made one after another without looking for slots.

const HALF_HOUR = 30 * 60_000;
/** Stay under the 300 requests a minute each host may make; a fresh host takes over. */
const HOST_BUDGET = 240;

export const QUESTIONS = [
  { id: "topic", label: "Topic", required: true, type: "text" },
  { id: "notes", label: "Notes", required: false },
  { id: "phone", label: "Phone", required: false, type: "phone" },
];

export type Fixture = {
  host: TestHost;
  eventType: { id: string; slug: string };
  /** Host-authenticated requests made so far: counts against the host's rate limit. */
  hostRequests: number;
  /** The next unused start (ISO), never offered twice by this fixture. */
  nextSlot(): string;
  /** A confirmed booking on a slot of its own: its id and the guest's cancel token. */
  book(): Promise<{ id: string; token: string }>;
};

export async function createFixture(): Promise<Fixture> {
  const host = await createHost({ timezone: "UTC" });
  const open = await api.put(
    "/me/availability",
    {
      minNoticeHours: 0,
      maxAdvanceDays: 730,
      weeklyRules: [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: "00:00", endTime: "24:00" })),
      dateOverrides: [],
    },
    { token: host.token },
  );
  if (open.status !== 200) throw new Error(`fixture availability: ${open.status} ${JSON.stringify(open.body)}`);
  // Starts every 15 minutes: whole and half hours in UTC stay slots when a test moves the host
  // to another zone, since every zone's offset is a multiple of 15 minutes (Asia/Kathmandu, Pacific/Chatham).
  // Recurring, so the series preview and a series booking have valid baselines (decisions §19).
  const eventType = await createEventType(host, { durationMinutes: 30, slotIntervalMinutes: 15, customQuestions: QUESTIONS, recurrence: { everyWeeks: 1, maxOccurrences: 4 } });
  const firstSlot = Math.ceil((Date.now() + 86_400_000) / 86_400_000) * 86_400_000;
  let slot = 0;
  const fixture: Fixture = {
    host,
    eventType: { id: eventType.id, slug: eventType.slug },
    hostRequests: 2,
    nextSlot: () => new Date(firstSlot + HALF_HOUR * slot++).toISOString().replace(".000Z", "Z"),
    async book() {
      // A slot may have been taken by a fuzzed reschedule or booking: move on to the next one.
      for (let attempt = 0; attempt < 10; attempt++) {
        const res = await api.post(
          `/public/${host.username}/${eventType.slug}/bookings`,
          { startTime: fixture.nextSlot(), guestName: "Fuzz Guest", guestEmail: `${unique("guest")}@example.com`, guestTimezone: "UTC", customAnswers: { topic: "Fuzz" } },
          { headers: { "idempotency-key": randomUUID() } },
        );
        if (res.status === 201) return { id: res.body.id, token: new URL(res.body.cancelUrl).pathname.split("/").at(-1)! };
        if (res.status !== 409) throw new Error(`fixture booking: ${res.status} ${JSON.stringify(res.body)}`);
      }
      throw new Error("fixture booking: no free slot in ten tries");
    },
  };
  return fixture;
}

/** One fixture per operation, so one route's changes (a deleted event type, a closed day) do not blind another's runs. */
export function fixturePool() {
  const fixtures = new Map<string, Fixture>();
  return async function fixtureFor(key: string): Promise<Fixture> {
    let fixture = fixtures.get(key);
    if (!fixture || fixture.hostRequests >= HOST_BUDGET) {
      fixture = await createFixture();
      fixtures.set(key, fixture);
    }
    return fixture;
  };
}
