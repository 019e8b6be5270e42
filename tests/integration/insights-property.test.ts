import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import fc from "fast-check";
import { DateTime } from "luxon";
import { beforeAll, describe, expect, it } from "vitest";
import { bookingHistory, bookingHosts, bookings, users, type BookingStatus, type UserRow } from "@/db/schema";
import type { Insights } from "@/lib/schemas/insights";
import { insightsFor } from "@/lib/services/insights/insights";
import { hashCancelToken } from "@/lib/services/bookings/store";
import { getDb } from "@/lib/store/database";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { createTeam, createTeamEventType, join } from "../support/teams";

// Every figure of GET /me/insights (lib/services/insights/insights.ts, counted by PostgreSQL in
// the host's zone) equals a brute-force count in TypeScript (luxon for the zones) over random
// bookings: every status, payment holds waiting, released and paid, no-shows, moved bookings,
// personal, round-robin and collective ones, hosts in four zones (two DST rules, a half-hour
// DST, a half-hour offset), starts on and around the DST change days of 2027, random ranges and
// filters. INSIGHTS_RUNS=50 runs deeper.

withTestDatabase();

const RUNS = Number(process.env.INSIGHTS_RUNS || 8);
const ZONES = ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata"];
/** The DST changes of 2027 in those zones: US 03-14 and 11-07, EU 03-28 and 10-31, Lord Howe 04-04 and 10-03. */
const CHANGE_DAYS = ["2027-03-14", "2027-03-28", "2027-04-04", "2027-10-03", "2027-10-31", "2027-11-07"];
const SLOT_MINUTES = 15;
const HOUR = 3_600_000;

type EventTypeFacts = { id: string; title: string; teamId: string | null; kind: "personal" | "round_robin" | "collective"; hostIds: string[] };
type World = { hosts: (TestHost & { row: UserRow })[]; eventTypes: EventTypeFacts[]; teams: { id: string; memberIds: string[] }[] };
let world: World;

beforeAll(async () => {
  const hosts = [];
  for (const timezone of ZONES) hosts.push(await createHost({ timezone, starter: false }));
  const [a, b, c, d] = hosts as [TestHost, TestHost, TestHost, TestHost];
  const eventTypes: EventTypeFacts[] = [];
  for (const [i, h] of hosts.entries()) {
    const e = await createEventType(h, { title: `Personal ${i}` });
    eventTypes.push({ id: e.id, title: e.title, teamId: null, kind: "personal", hostIds: [h.id] });
  }
  const teamA = await createTeam(a, { name: "Alpha" });
  await join(a, teamA.id, b);
  await join(a, teamA.id, c);
  const teamB = await createTeam(d, { name: "Beta" });
  await join(d, teamB.id, a);
  const panel = await createTeamEventType(a, teamA.id, { title: "Panel", schedulingType: "collective" });
  const support = await createTeamEventType(a, teamA.id, { title: "Support", schedulingType: "round_robin" });
  const clinic = await createTeamEventType(d, teamB.id, { title: "Clinic", schedulingType: "round_robin" });
  eventTypes.push({ id: panel.id, title: "Panel", teamId: teamA.id, kind: "collective", hostIds: [a.id, b.id, c.id] });
  eventTypes.push({ id: support.id, title: "Support", teamId: teamA.id, kind: "round_robin", hostIds: [a.id, b.id, c.id] });
  eventTypes.push({ id: clinic.id, title: "Clinic", teamId: teamB.id, kind: "round_robin", hostIds: [d.id, a.id] });
  const rows = await (await getDb()).select().from(users).where(inArray(users.id, hosts.map((h) => h.id)));
  world = {
    hosts: hosts.map((h) => ({ ...h, row: rows.find((r) => r.id === h.id)! })),
    eventTypes,
    teams: [
      { id: teamA.id, memberIds: [a.id, b.id, c.id] },
      { id: teamB.id, memberIds: [d.id, a.id] },
    ],
  };
});

// ---- Random bookings ----

/** What a booking is, as far as the insights care; `kind` says how it came to be. */
const kinds = ["confirmed", "pending", "cancelled", "declined", "expired_request", "hold_waiting", "hold_released", "paid_confirmed", "paid_cancelled", "no_show"] as const;
type Kind = (typeof kinds)[number];

type Sample = {
  eventTypeIndex: number;
  /** Which of the event type's hosts: the round-robin one, or a collective's first. */
  hostPick: number;
  /** A collective booking's hosts: a subset of the event type's (the first always in). */
  coHostMask: number;
  /** A change day, and a quarter-hour from 14 hours before its UTC midnight to 38 after. */
  dayIndex: number;
  slot: number;
  kind: Kind;
  moved: boolean;
  /** Hours from being made to the start, to the minute. */
  leadMinutes: number;
};

const sampleArb = fc.record({
  eventTypeIndex: fc.nat({ max: 6 }),
  hostPick: fc.nat({ max: 2 }),
  coHostMask: fc.nat({ max: 3 }),
  dayIndex: fc.nat({ max: CHANGE_DAYS.length - 1 }),
  slot: fc.nat({ max: (52 * 60) / SLOT_MINUTES - 1 }),
  kind: fc.constantFrom(...kinds),
  moved: fc.boolean(),
  leadMinutes: fc.nat({ max: 60 * 24 * 90 }),
});

/** Distinct starts (a start a booking of its own): no two bookings of a host overlap, as the EXCLUDE constraint wants. */
const samplesArb = fc.uniqueArray(sampleArb, { minLength: 0, maxLength: 80, size: "max", selector: (s) => `${s.dayIndex}:${s.slot}` });

type Made = {
  id: string;
  eventType: EventTypeFacts;
  hostIds: string[];
  start: Date;
  createdAt: Date;
  status: BookingStatus;
  noShow: boolean;
  moved: boolean;
  paymentId: string | null;
  paid: boolean;
};

function startOf(s: Sample): Date {
  return new Date(Date.parse(`${CHANGE_DAYS[s.dayIndex]}T00:00:00Z`) - 14 * HOUR + s.slot * SLOT_MINUTES * 60_000);
}

function made(s: Sample): Made {
  const eventType = world.eventTypes[s.eventTypeIndex]!;
  const first = eventType.hostIds[s.hostPick % eventType.hostIds.length]!;
  const hostIds =
    eventType.kind === "collective" ? [first, ...eventType.hostIds.filter((id, i) => id !== first && (s.coHostMask >> i) % 2 === 1)] : [first];
  const start = startOf(s);
  const status: BookingStatus = (
    { confirmed: "confirmed", pending: "pending", cancelled: "cancelled", declined: "cancelled", expired_request: "cancelled", hold_waiting: "awaiting_payment", hold_released: "cancelled", paid_confirmed: "confirmed", paid_cancelled: "cancelled", no_show: "confirmed" } as const
  )[s.kind];
  const paymentId = s.kind.startsWith("hold_") || s.kind.startsWith("paid_") ? `pay_${randomUUID()}` : null;
  return {
    id: `bkg_${randomUUID()}`,
    eventType,
    hostIds,
    start,
    createdAt: new Date(start.getTime() - s.leadMinutes * 60_000),
    status,
    noShow: s.kind === "no_show",
    moved: s.moved,
    paymentId,
    paid: s.kind.startsWith("paid_"),
  };
}

const cancellerOf: Partial<Record<Kind, "guest" | "host" | "system">> = { cancelled: "guest", declined: "host", expired_request: "system", hold_released: "system", paid_cancelled: "guest" };

/** The bookings written straight into the tables, as the service's own statements leave them. */
async function write(samples: Sample[]): Promise<Made[]> {
  const all = samples.map(made);
  if (all.length === 0) return all;
  const db = await getDb();
  await db.insert(bookings).values(
    all.map((b, i) => ({
      id: b.id,
      hostId: b.hostIds[0]!,
      eventTypeId: b.eventType.id,
      status: b.status,
      startTime: b.start,
      endTime: new Date(b.start.getTime() + SLOT_MINUTES * 60_000),
      blockedStart: b.start,
      blockedEnd: new Date(b.start.getTime() + SLOT_MINUTES * 60_000),
      guestName: "Random Guest",
      guestEmail: `guest-${i}@example.com`,
      guestTimezone: "UTC",
      cancelTokenHash: hashCancelToken(randomUUID()),
      cancelledBy: cancellerOf[samples[i]!.kind] ?? null,
      previousStartTime: b.moved ? new Date(b.start.getTime() - 7 * 24 * HOUR) : null,
      noShow: b.noShow,
      paymentId: b.paymentId,
      paymentStatus: b.paymentId === null ? null : b.paid ? (b.status === "cancelled" ? ("refunded" as const) : ("paid" as const)) : ("unpaid" as const),
      createdAt: b.createdAt,
    })),
  );
  const coHosts = all.flatMap((b) => b.hostIds.slice(1).map((userId) => ({ b, userId })));
  if (coHosts.length > 0) {
    await db.insert(bookingHosts).values(
      coHosts.map(({ b, userId }) => ({
        bookingId: b.id,
        userId,
        blockedStart: b.start,
        blockedEnd: new Date(b.start.getTime() + SLOT_MINUTES * 60_000),
        startTime: b.start,
        status: b.status,
        cancelled: b.status === "cancelled",
      })),
    );
  }
  const paid = all.filter((b) => b.paid);
  if (paid.length > 0) await db.insert(bookingHistory).values(paid.map((b) => ({ bookingId: b.id, action: "paid", actor: "guest", details: {} })));
  return all;
}

// ---- The brute force ----

type Question = { from: string; to: string; eventTypeId?: string; teamId?: string };

function percentileCont(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const at = p * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

function bruteForce(host: World["hosts"][number], all: Made[], q: Question): Insights {
  const zone = host.timezone;
  const localOf = (b: Made) => DateTime.fromJSDate(b.start, { zone });
  const counted = all.filter((b) => {
    const date = localOf(b).toISODate()!;
    const aHold = b.status === "awaiting_payment" || (b.status === "cancelled" && b.paymentId !== null && !b.paid);
    return (
      b.hostIds.includes(host.id) &&
      date >= q.from &&
      date <= q.to &&
      !aHold &&
      (!q.eventTypeId || b.eventType.id === q.eventTypeId) &&
      (!q.teamId || b.eventType.teamId === q.teamId)
    );
  });
  const live = counted.filter((b) => b.status !== "cancelled");
  const countBy = <K extends string>(list: Made[], key: (b: Made) => K) => {
    const m = new Map<K, Made[]>();
    for (const b of list) m.set(key(b), [...(m.get(key(b)) ?? []), b]);
    return m;
  };
  const days = countBy(counted, (b) => localOf(b).toISODate()!);
  const byDay: Insights["byDay"] = [];
  for (let d = DateTime.fromISO(q.from, { zone: "UTC" }); d.toISODate()! <= q.to; d = d.plus({ days: 1 })) {
    const list = days.get(d.toISODate()!) ?? [];
    byDay.push({ date: d.toISODate()!, bookings: list.length, cancelled: list.filter((b) => b.status === "cancelled").length, noShow: list.filter((b) => b.noShow).length });
  }
  const leads = live.map((b) => (b.start.getTime() - b.createdAt.getTime()) / HOUR).sort((x, y) => x - y);
  const hostCounts = new Map<string, number>();
  for (const b of live.filter((b) => b.eventType.teamId !== null)) for (const id of b.hostIds) hostCounts.set(id, (hostCounts.get(id) ?? 0) + 1);
  return {
    from: q.from,
    to: q.to,
    timeZone: zone,
    totals: {
      bookings: counted.length,
      confirmed: counted.filter((b) => b.status === "confirmed").length,
      pending: counted.filter((b) => b.status === "pending").length,
      cancelled: counted.filter((b) => b.status === "cancelled").length,
      rescheduled: counted.filter((b) => b.moved).length,
      noShow: counted.filter((b) => b.noShow).length,
    },
    byDay,
    byEventType: [...countBy(counted, (b) => b.eventType.id).entries()].map(([id, list]) => ({
      eventTypeId: id,
      title: list[0]!.eventType.title,
      bookings: list.length,
      cancelled: list.filter((b) => b.status === "cancelled").length,
      noShow: list.filter((b) => b.noShow).length,
    })),
    byWeekdayHour: [...countBy(live, (b) => `${localOf(b).weekday % 7}:${localOf(b).hour}`).entries()].map(([key, list]) => {
      const [weekday, hour] = key.split(":").map(Number) as [number, number];
      return { weekday, hour, bookings: list.length };
    }),
    leadTimeHours: { median: percentileCont(leads, 0.5), p90: percentileCont(leads, 0.9) },
    byHost: [...hostCounts.entries()].map(([userId, n]) => ({ userId, username: world.hosts.find((h) => h.id === userId)!.username, fullName: world.hosts.find((h) => h.id === userId)!.row.fullName, bookings: n })),
  };
}

/** The answer's lists in one order (ties among equal counts are the database's collation's to break) and lead times compared to the tenth they are rounded to. */
function comparable(i: Insights) {
  const byId = <T extends { bookings: number }>(list: T[], id: (x: T) => string) => [...list].sort((a, b) => b.bookings - a.bookings || id(a).localeCompare(id(b)));
  return {
    ...i,
    byEventType: byId(i.byEventType, (e) => e.eventTypeId),
    byWeekdayHour: [...i.byWeekdayHour].sort((a, b) => a.weekday - b.weekday || a.hour - b.hour),
    byHost: byId(i.byHost, (h) => h.userId),
    leadTimeHours: { median: null, p90: null },
  };
}

function expectLeadClose(got: number | null, exact: number | null, what: string) {
  if (exact === null) return expect(got, what).toBeNull();
  expect(Math.abs(got! - exact), `${what}: ${got} against ${exact}`).toBeLessThanOrEqual(0.05 + 1e-9);
}

const questionArb = fc.record({
  hostIndex: fc.nat({ max: ZONES.length - 1 }),
  dayIndex: fc.nat({ max: CHANGE_DAYS.length - 1 }),
  before: fc.nat({ max: 2 }),
  after: fc.nat({ max: 2 }),
  filter: fc.constantFrom("none", "eventType", "team", "whole"),
  pick: fc.nat({ max: 10 }),
});

type QuestionSample = typeof questionArb extends fc.Arbitrary<infer T> ? T : never;

function questionOf(a: QuestionSample): { host: World["hosts"][number]; q: Question } {
  const host = world.hosts[a.hostIndex]!;
  const day = DateTime.fromISO(CHANGE_DAYS[a.dayIndex]!, { zone: "UTC" });
  if (a.filter === "whole") return { host, q: { from: "2027-03-12", to: "2027-11-09" } };
  const q: Question = { from: day.minus({ days: a.before }).toISODate()!, to: day.plus({ days: a.after }).toISODate()! };
  const theirTypes = world.eventTypes.filter((e) => (e.teamId === null ? e.hostIds[0] === host.id : world.teams.some((t) => t.id === e.teamId && t.memberIds.includes(host.id))));
  const theirTeams = world.teams.filter((t) => t.memberIds.includes(host.id));
  if (a.filter === "eventType") q.eventTypeId = theirTypes[a.pick % theirTypes.length]!.id;
  if (a.filter === "team" && theirTeams.length > 0) q.teamId = theirTeams[a.pick % theirTeams.length]!.id;
  return { host, q };
}

describe("insights against a brute-force count", () => {
  it("agree on every figure: random bookings, statuses, holds, zones, DST days, ranges and filters", async () => {
    let counted = 0; // not a vacuous agreement: the questions found bookings
    await fc.assert(
      fc.asyncProperty(samplesArb, fc.array(questionArb, { minLength: 4, maxLength: 8 }), async (samples, questions) => {
        const all = await write(samples);
        try {
          const db = await getDb();
          for (const a of questions) {
            const { host, q } = questionOf(a);
            const got = await insightsFor(db, host.row, q);
            const expected = bruteForce(host, all, q);
            const what = `${host.timezone} ${JSON.stringify(q)}`;
            counted += expected.totals.bookings;
            expect(comparable(got), what).toEqual(comparable(expected));
            expectLeadClose(got.leadTimeHours.median, expected.leadTimeHours.median, `${what} median`);
            expectLeadClose(got.leadTimeHours.p90, expected.leadTimeHours.p90, `${what} p90`);
            // Most booked first.
            for (const list of [got.byEventType, got.byHost]) expect(list.map((x) => x.bookings), what).toEqual([...list.map((x) => x.bookings)].sort((x, y) => y - x));
          }
        } finally {
          if (all.length > 0) await (await getDb()).delete(bookings).where(inArray(bookings.id, all.map((b) => b.id)));
        }
      }),
      { numRuns: RUNS },
    );
    expect(counted).toBeGreaterThan(RUNS);
    // Every run cleaned up after itself.
    expect(await (await getDb()).select({ id: bookings.id }).from(bookings).where(eq(bookings.hostId, world.hosts[0]!.id))).toEqual([]);
  });
});
