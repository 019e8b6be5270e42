import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { expireUnconfirmedBookings } from "@/lib/services/bookings/expire";
import { getDb } from "@/lib/store/database";
import { api, type ApiResponse } from "../support/api";
import { dateIn, getSlots, guest, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique, type TestHost } from "../support/factories";
import { configure } from "../support/jobs";
import { teamWithType } from "../support/teams";

// The per-guest-email limit (decisions §8: 5 an hour): what it counts, and what its answers
// tell. Anyone may type anyone's address into a booking, so no answer may say how many bookings
// that address made, and bookings that no longer stand (a stranger's host cancel, a declined or
// expired request) must not lock the address out.

withTestDatabase();

let addressCounter = 0;
/** A client address of this test's own (in-process, the address comes from X-Forwarded-For). */
function address(): string {
  addressCounter += 1;
  return `198.18.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

const bookFrom = (ip: string, path: string, startTime: string, guestEmail: string, key = randomUUID()) =>
  api.post(`${path}/bookings`, { startTime, ...guest({ guestEmail }) }, { headers: { "idempotency-key": key, "x-forwarded-for": ip } });

const rateLimitHeaderNames = (res: ApiResponse) => [...res.headers.keys()].filter((k) => k.startsWith("x-ratelimit-"));

/** A host with a morning of 15-minute slots: twelve of them. */
async function openMorning(host?: TestHost, fields: Record<string, unknown> = {}) {
  const owner = host ?? (await createHost());
  const et = await createEventType(owner, { durationMinutes: 15, ...fields });
  const date = dateIn(6, owner.timezone);
  await openOnly(owner, date);
  const slots = (await getSlots(owner, et.slug, date)).map((s) => s.startTime);
  return { host: owner, et, path: `/public/${owner.username}/${et.slug}`, slots };
}

const TOO_MANY = "Too many bookings for this email address: at most 5 an hour";

describe("what a booking answer tells of the guest email's count", () => {
  it("nothing: no X-RateLimit-* on a 201, a replay, a 409, a 422 or the 429, and the 429 has a fixed Retry-After and no count", async () => {
    // The per-address limit off: any X-RateLimit-* left could only be the email's.
    configure({ addressLimits: { ...getConfig().addressLimits, bookings: undefined } });
    const { path, slots } = await openMorning();
    const victim = `${unique("victim")}@example.com`;
    const ip = address();
    const key = randomUUID();
    const answers: [string, ApiResponse][] = [];

    const first = await bookFrom(ip, path, slots[0]!, victim, key);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    answers.push(["201", first]);
    const replay = await bookFrom(ip, path, slots[0]!, victim, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    answers.push(["replay", replay]);
    const taken = await bookFrom(ip, path, slots[0]!, victim);
    expect(taken.status).toBe(409);
    answers.push(["409", taken]);
    const mismatch = await bookFrom(ip, path, slots[1]!, victim, key);
    expect(mismatch.status).toBe(422);
    answers.push(["422", mismatch]);
    for (let i = 1; i < 5; i++) {
      const res = await bookFrom(ip, path, slots[i]!, victim);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      answers.push([`201 #${i + 1}`, res]);
    }
    const refused = await bookFrom(ip, path, slots[5]!, victim.toUpperCase());
    expect(refused.status).toBe(429);
    answers.push(["429", refused]);

    for (const [what, res] of answers) {
      expect(rateLimitHeaderNames(res), what).toEqual([]);
      if (what !== "429") expect(res.headers.get("retry-after"), what).toBeNull();
    }
    // The contract's error shape, in plain words; how long until the email's oldest booking
    // leaves the hour would tell when it was made: the wait given is the whole hour, always.
    expect(refused.body).toEqual({ error: "rate_limited", message: TOO_MANY, details: { retryAfterSeconds: 3600 } });
    expect(refused.headers.get("retry-after")).toBe("3600");
  });

  it("a team booking's answer neither", async () => {
    configure({ addressLimits: { ...getConfig().addressLimits, bookings: undefined } });
    const ann = await createHost({ timezone: "UTC" });
    const date = dateIn(6, "UTC");
    await openOnly(ann, date);
    const { team, eventType } = await teamWithType(ann, [], { durationMinutes: 30 });
    const path = `/public/teams/${team.slug}/${eventType.slug}`;
    const slots = await api.get(`${path}/slots?from=${date}&to=${date}&timezone=UTC`, { headers: { "x-forwarded-for": address() } });
    const res = await bookFrom(address(), path, slots.body.slots[0].startTime, `${unique("team-guest")}@example.com`);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(rateLimitHeaderNames(res)).toEqual([]);
  });

  it("with the per-address limit on, the headers are the requester's own count, the same whichever email is booked", async () => {
    configure({ addressLimits: { ...getConfig().addressLimits, bookings: { limit: 50, windowSeconds: 600 } } });
    const { path, slots } = await openMorning();
    const busy = `${unique("busy")}@example.com`;
    // Four bookings of one email, from addresses of their own.
    for (let i = 0; i < 4; i++) expect((await bookFrom(address(), path, slots[i]!, busy)).status).toBe(201);

    const ip = address();
    const fresh = await bookFrom(ip, path, slots[4]!, `${unique("fresh")}@example.com`);
    const ofBusy = await bookFrom(ip, path, slots[5]!, busy);
    const refused = await bookFrom(ip, path, slots[6]!, busy);
    expect([fresh.status, ofBusy.status, refused.status]).toEqual([201, 201, 429]);
    expect([fresh, ofBusy, refused].map((r) => [r.headers.get("x-ratelimit-limit"), r.headers.get("x-ratelimit-remaining")])).toEqual([
      ["50", "49"],
      ["50", "48"],
      ["50", "47"],
    ]);
    expect(refused.body.message).toBe(TOO_MANY);
    expect(refused.headers.get("retry-after")).toBe("3600");
  });
});

describe("what the guest email's limit counts: bookings that still stand", () => {
  it("five bookings in a stranger's name, cancelled by their host, do not lock the stranger out", async () => {
    // A free account books itself five times in the victim's name and cancels them as the host.
    const attacker = await openMorning();
    const victim = `${unique("victim")}@example.com`;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await bookFrom(address(), attacker.path, attacker.slots[i]!, victim);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      made.push(res.body.id);
    }
    for (const id of made) expect((await api.post(`/me/bookings/${id}/cancel`, { reason: "never mind" }, { token: attacker.host.token })).status).toBe(200);

    // The victim books someone else, and may still make five bookings that stand, not six.
    const other = await openMorning();
    for (let i = 0; i < 5; i++) {
      const res = await bookFrom(address(), other.path, other.slots[i]!, victim);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    expect((await bookFrom(address(), other.path, other.slots[5]!, victim)).status).toBe(429);
  });

  it("a pending request counts while it holds its time; declined or expired, it no longer does", async () => {
    const { host, path, slots } = await openMorning(undefined, { requiresConfirmation: true });
    const victim = `${unique("requests")}@example.com`;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await bookFrom(address(), path, slots[i]!, victim);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.status).toBe("pending");
      made.push(res.body.id);
    }
    expect((await bookFrom(address(), path, slots[5]!, victim)).status).toBe(429);

    expect((await api.post(`/me/bookings/${made[0]}/decline`, { reason: "no" }, { token: host.token })).status).toBe(200);
    expect((await bookFrom(address(), path, slots[5]!, victim)).status).toBe(201);
    expect((await bookFrom(address(), path, slots[6]!, victim)).status).toBe(429);

    // The service's clock past their starts: every request left unanswered expires.
    expect(await expireUnconfirmedBookings(await getDb(), Date.now() + 30 * 86_400_000)).toBeGreaterThanOrEqual(5);
    expect((await bookFrom(address(), path, slots[6]!, victim)).status).toBe(201);
  });
});
