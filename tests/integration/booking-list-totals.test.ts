import { randomUUID } from "node:crypto";
import { eq, sql, type SQL } from "drizzle-orm";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { openPostgres, pgConstraint, pgErrorCode } from "@/db/client";
import { bookingHosts, bookings } from "@/db/schema";
import { expireUnconfirmedBookings } from "@/lib/services/bookings/expire";
import { getDb, setDatabase } from "@/lib/store/database";
import { api } from "../support/api";
import { book, clientHeaders, dateIn, guest, insertBookingRow, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { as, createTeam, createTeamEventType, join } from "../support/teams";

// GET /me/bookings answers an exact total without counting the host's history (migration 0020:
// host_booking_counts, kept by triggers on booking_hosts; lib/services/bookings/list.ts). After
// every kind of write a host's bookings see (made, cancelled by host and guest, requested,
// confirmed, declined, expired, moved, reassigned, a collective booking's hosts, an event type
// deleted, a booking or an account deleted), every total the list gives for every filter it
// reads from the counters is compared with a count of the rows themselves, and the counters with
// booking_hosts counted by (user, status). The database is the file's own: the whole tables are compared.

const test = withTestDatabase({ isolated: true });
const onPostgres = process.env.TEST_DB === "postgres";

const STATUSES = [undefined, "pending", "confirmed", "cancelled", "confirmed,cancelled"] as const;
const WHENS = [undefined, "upcoming", "past"] as const;
const at = (date: string, time: string) => DateTime.fromISO(`${date}T${time}`, { zone: "UTC" }).toUTC().toISO({ suppressMilliseconds: true })!;

async function rowsOf<T>(query: SQL): Promise<T[]> {
  const result = await (await getDb()).execute(query);
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
}

/** The counters against booking_hosts counted now, in one statement (one snapshot): the keys that differ. */
async function counterDrift() {
  return rowsOf<{ user_id: string; status: string; rows: number; counted: number }>(sql`
    select user_id, status, coalesce(r.n, 0) as rows, coalesce(c.n, 0) as counted
    from (select user_id, status, count(*)::int as n from booking_hosts group by user_id, status) r
      full join host_booking_counts c using (user_id, status)
    where coalesce(r.n, 0) <> coalesce(c.n, 0) or c.n < 0`);
}

/** Every total of the list that the counters answer, for each of `hosts`, against a count of their bookings. */
async function expectExactTotals(hosts: TestHost[], step: string) {
  expect(await counterDrift(), `${step}: counters`).toEqual([]);
  for (const host of hosts) {
    const now = Date.now();
    const mine = await (await getDb())
      .select({ status: bookings.status, endTime: bookings.endTime })
      .from(bookingHosts)
      .innerJoin(bookings, eq(bookings.id, bookingHosts.bookingId))
      .where(eq(bookingHosts.userId, host.id));
    const queries = STATUSES.flatMap((status) => WHENS.map((when) => ({ status, when })));
    const answers = await Promise.all(
      queries.map(({ status, when }) => {
        const q = new URLSearchParams({ limit: "1", ...(status ? { status } : {}), ...(when ? { when } : {}) });
        return api.get(`/me/bookings?${q}`, { token: host.token });
      }),
    );
    const got = queries.map((q, i) => {
      expect(answers[i]!.status, JSON.stringify(answers[i]!.body)).toBe(200);
      return { ...q, total: answers[i]!.body.pagination.total as number };
    });
    const expected = queries.map(({ status, when }) => ({
      status,
      when,
      // Bookings here end days away from now: the clock between the answer and this count moves none of them.
      total: mine.filter(
        (b) =>
          (!status || status.split(",").includes(b.status)) &&
          (when === undefined || (when === "upcoming" ? b.endTime.getTime() > now : b.endTime.getTime() <= now)),
      ).length,
    }));
    expect(got, `${step}: totals of ${host.username}`).toEqual(expected);
  }
}

function bookTeam(teamSlug: string, slug: string, startTime: string) {
  return api.post(`/public/teams/${teamSlug}/${slug}/bookings`, { startTime, ...guest() }, { headers: { "idempotency-key": randomUUID(), ...clientHeaders() } });
}

async function hostsOf(bookingId: string): Promise<string[]> {
  const rows = await (await getDb()).select({ userId: bookingHosts.userId }).from(bookingHosts).where(eq(bookingHosts.bookingId, bookingId));
  return rows.map((r) => r.userId).sort();
}

describe("GET /me/bookings totals from the counters", () => {
  it("stay exact through every write a host's bookings see, for every status and when", async () => {
    const date = dateIn(6, "UTC");
    const [ann, ben, cy, dee, eve] = await Promise.all(["Ann", "Ben", "Cy", "Dee", "Eve"].map((fullName) => createHost({ timezone: "UTC", fullName })));
    const everyone = [ann!, ben!, cy!, dee!, eve!];
    for (const h of everyone) await openOnly(h, date, [{ startTime: "08:00", endTime: "18:00" }]);
    const plain = await createEventType(ann!, { durationMinutes: 30 });
    const request = await createEventType(ann!, { durationMinutes: 30, requiresConfirmation: true });
    await expectExactTotals(everyone, "no bookings");

    // A past: confirmed, cancelled, and a request never answered (the API cannot book the past).
    const day = 86_400_000;
    await insertBookingRow(ann!.id, plain.id, new Date(Date.now() - 3 * day));
    await insertBookingRow(ann!.id, plain.id, new Date(Date.now() - 4 * day), 30, { status: "cancelled", cancelledBy: "guest", cancelledAt: new Date() });
    const stale = await insertBookingRow(ann!.id, request.id, new Date(Date.now() - 2 * day), 30, { status: "pending" });
    await expectExactTotals(everyone, "past bookings");

    const made = [];
    for (const time of ["09:00", "09:30", "10:00", "10:30"]) {
      const res = await book(ann!, plain.slug, at(date, time));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      made.push(res.body);
    }
    await expectExactTotals(everyone, "four bookings");

    expect((await api.post(`/me/bookings/${made[0].id}/cancel`, {}, as(ann!))).status).toBe(200);
    expect((await api.post("/public/cancel", { token: made[1].cancelUrl.split("/").pop() })).status).toBe(200);
    await expectExactTotals(everyone, "cancelled by the host and by the guest");

    const requests = [];
    for (const time of ["11:00", "11:30", "12:00"]) {
      const res = await book(ann!, request.slug, at(date, time));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.status).toBe("pending");
      requests.push(res.body);
    }
    await expectExactTotals(everyone, "three requests");
    expect((await api.post(`/me/bookings/${requests[0].id}/confirm`, undefined, as(ann!))).status).toBe(200);
    expect((await api.post(`/me/bookings/${requests[1].id}/decline`, {}, as(ann!))).status).toBe(200);
    expect(await expireUnconfirmedBookings(await getDb(), Date.now())).toBe(1);
    expect((await (await getDb()).select({ status: bookings.status }).from(bookings).where(eq(bookings.id, stale.row.id)))[0]!.status).toBe("cancelled");
    await expectExactTotals(everyone, "confirmed, declined, expired");

    const moved = await api.post(`/me/bookings/${made[2].id}/reschedule`, { startTime: at(date, "16:00") }, as(ann!));
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const guestMoved = await api.post("/public/reschedule", { token: requests[2].cancelUrl.split("/").pop(), startTime: at(date, "16:30") });
    expect(guestMoved.status, JSON.stringify(guestMoved.body)).toBe(200);
    await expectExactTotals(everyone, "rescheduled");

    // Round robin among Ann, Ben and Cy; its host made busy, the booking moves to another host.
    const rrTeam = await createTeam(ann!, { name: "Sales" });
    await join(ann!, rrTeam.id, ben!);
    await join(ann!, rrTeam.id, cy!);
    const rr = await createTeamEventType(ann!, rrTeam.id, { schedulingType: "round_robin" });
    const rrBooked = await bookTeam(rrTeam.slug, rr.slug, at(date, "13:00"));
    expect(rrBooked.status, JSON.stringify(rrBooked.body)).toBe(201);
    const [first] = await hostsOf(rrBooked.body.id);
    const firstHost = everyone.find((h) => h.id === first)!;
    await expectExactTotals(everyone, "a round-robin booking");
    const own = firstHost === ann ? plain : await createEventType(firstHost, { durationMinutes: 30 });
    expect((await book(firstHost, own.slug, at(date, "14:00"))).status).toBe(201);
    const reassigned = await api.post(`/me/bookings/${rrBooked.body.id}/reschedule`, { startTime: at(date, "14:00") }, as(firstHost));
    expect(reassigned.status, JSON.stringify(reassigned.body)).toBe(200);
    const [second] = await hostsOf(rrBooked.body.id);
    expect(second).not.toBe(first);
    await expectExactTotals(everyone, "reassigned to another host");

    // Collective: Dee, Ann and Eve host each booking together.
    const together = await createTeam(dee!, { name: "Panel" });
    await join(dee!, together.id, ann!);
    await join(dee!, together.id, eve!);
    const panel = await createTeamEventType(dee!, together.id, { schedulingType: "collective" });
    const panels = [];
    for (const time of ["15:00", "15:30", "17:00"]) {
      const res = await bookTeam(together.slug, panel.slug, at(date, time));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(await hostsOf(res.body.id)).toEqual([ann!.id, dee!.id, eve!.id].sort());
      panels.push(res.body);
    }
    await expectExactTotals(everyone, "collective bookings");
    expect((await api.post(`/me/bookings/${panels[0].id}/cancel`, {}, as(eve!))).status).toBe(200);
    expect((await api.post(`/me/bookings/${panels[1].id}/reschedule`, { startTime: at(date, "17:30") }, as(dee!))).status).toBe(200);
    await expectExactTotals(everyone, "a collective booking cancelled, another moved");

    // Event types deleted: one with bookings (hidden, its bookings stay), one without (removed).
    expect((await api.delete(`/me/event-types/${request.id}`, as(ann!))).status).toBe(200);
    const unused = await createEventType(ann!);
    expect((await api.delete(`/me/event-types/${unused.id}`, as(ann!))).status).toBe(204);
    await expectExactTotals(everyone, "event types deleted");

    // A booking deleted (its every host's row goes by the cascade), then an account.
    await (await getDb()).delete(bookings).where(eq(bookings.id, panels[2].id));
    await expectExactTotals(everyone, "a collective booking deleted");
    await rowsOf(sql`delete from users where id = ${eve!.id}`);
    expect(await rowsOf(sql`select 1 from host_booking_counts where user_id = ${eve!.id}`)).toEqual([]);
    await expectExactTotals(everyone.filter((h) => h !== eve), "an account deleted");
  });

  it("other filters (dates, event type, no-show) still count what they select", async () => {
    const host = await createHost({ timezone: "UTC" });
    const et = await createEventType(host, { durationMinutes: 30 });
    const other = await createEventType(host, { durationMinutes: 30 });
    const day = 86_400_000;
    for (let i = 1; i <= 3; i++) await insertBookingRow(host.id, et.id, new Date(Date.now() - i * day));
    await insertBookingRow(host.id, other.id, new Date(Date.now() + 2 * day));
    await insertBookingRow(host.id, other.id, new Date(Date.now() - 5 * day), 30, { noShow: true });
    const total = async (q: string) => (await api.get(`/me/bookings?${q}`, as(host))).body.pagination.total;
    expect(await total(`eventTypeId=${et.id}`)).toBe(3);
    expect(await total(`eventTypeId=${other.id}&when=past`)).toBe(1);
    expect(await total("noShow=true")).toBe(1);
    expect(await total(`from=${dateIn(-4, "UTC")}&to=${dateIn(-1, "UTC")}`)).toBe(3);
    expect(await total(`from=${dateIn(-4, "UTC")}&when=upcoming`)).toBe(1);
    expect(await total("status=confirmed&noShow=false&when=past")).toBe(3);
  });

  it("rest on no booking being longer than the longest event type: the database refuses one (migration 0022)", async () => {
    const host = await createHost({ timezone: "UTC" });
    const et = await createEventType(host, { durationMinutes: 720 });
    const start = new Date(Date.now() + 3 * 86_400_000);
    // 12 hours is the longest an event type may be; a row one minute longer, however written, is refused.
    await insertBookingRow(host.id, et.id, start, 720);
    const error = await insertBookingRow(host.id, et.id, new Date(start.getTime() + 86_400_000), 721).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, "a 721-minute booking was stored").toBeDefined();
    expect([pgErrorCode(error), pgConstraint(error)]).toEqual(["23514", "bookings_length_chk"]);
    const total = (await api.get("/me/bookings?when=upcoming", as(host))).body.pagination.total;
    expect(total).toBe(1);
  });
});

// Many writers of the same hosts' counters at once, on PostgreSQL's own connections: collective
// bookings sharing hosts made and cancelled through the API (under the hosts' locks) while their
// requests are confirmed and declined (which take no host lock: the time was held already), and
// status changes written straight to bookings by concurrent transactions that take no lock of
// the service (the triggers alone order them). No deadlock (a new booking whose hosts' rows were
// written by two statements, its own host's then the others', took the counters out of order and
// deadlocked with the confirmations), no lost update: the counters equal the rows afterwards.
describe.runIf(onPostgres)("counters under concurrent writers (PostgreSQL)", () => {
  it("stay exact, and no writer fails", async () => {
    const date = dateIn(9, "UTC");
    const hosts = await Promise.all(["A", "B", "C", "D"].map((fullName) => createHost({ timezone: "UTC", fullName })));
    for (const h of hosts) await openOnly(h, date, [{ startTime: "00:00", endTime: "24:00" }]);
    const team = await createTeam(hosts[0]!, { name: "All" });
    for (const h of hosts.slice(1)) await join(hosts[0]!, team.id, h);
    const collective = await createTeamEventType(hosts[0]!, team.id, { schedulingType: "collective", durationMinutes: 15 });
    const asks = await createTeamEventType(hosts[0]!, team.id, { schedulingType: "collective", durationMinutes: 15, requiresConfirmation: true });
    const personal = await Promise.all(hosts.map((h) => createEventType(h, { durationMinutes: 15 })));
    const slot = (i: number) => new Date(Date.parse(`${date}T00:00:00Z`) + i * 15 * 60_000).toISOString().replace(".000", "");

    const shared = test.current();
    const wide = await openPostgres(test.url()!, { max: 24 });
    setDatabase(wide);
    try {
      await Promise.all(Array.from({ length: 24 }, () => wide.db.execute("select pg_sleep(0.05)")));
      // Round 1: 16 collective bookings and 12 requests at once, and each host's own bookings beside them.
      const made = async (requests: Promise<{ status: number; body: any }>[], ok: number[]) => {
        const answers = await Promise.all(requests);
        const failed = answers.filter((r) => !ok.includes(r.status)).map((r) => r.body);
        expect(failed, JSON.stringify(failed)).toEqual([]);
        return answers.map((r) => r.body.id as string);
      };
      const ids = await made(
        [
          ...Array.from({ length: 16 }, (_, i) => bookTeam(team.slug, collective.slug, slot(i))),
          ...Array.from({ length: 12 }, (_, i) => bookTeam(team.slug, asks.slug, slot(20 + i))),
          ...hosts.map((h, k) => book(h, personal[k]!.slug, slot(40 + k))),
        ],
        [201],
      );
      let pending = ids.slice(16, 28);
      // Rounds 2–5: every host confirms and declines the requests at once (no host lock: the time
      // was held already), cancels, while new requests and bookings are made.
      for (let round = 0; round < 4; round++) {
        const next = await made(
          [
            ...pending.map((id, i) => api.post(`/me/bookings/${id}/${i % 3 === 2 ? "decline" : "confirm"}`, i % 3 === 2 ? {} : undefined, as(hosts[i % 4]!))),
            ...Array.from({ length: 12 }, (_, i) => bookTeam(team.slug, asks.slug, slot(44 + round * 12 + i))),
            ...(round === 0 ? ids.slice(0, 16).filter((_, i) => i % 2 === 0).map((id, i) => api.post(`/me/bookings/${id}/cancel`, {}, as(hosts[i % 4]!))) : []),
          ],
          [200, 201],
        );
        pending = next.slice(pending.length, pending.length + 12);
      }
      expect(await counterDrift()).toEqual([]);

      // Round 3: 24 transactions, no service lock, flip the status of one collective booking each,
      // several times over, in different orders: the counters' rows are the only shared thing.
      const flippable = ids.slice(0, 16);
      const errors: unknown[] = [];
      await Promise.all(
        Array.from({ length: 24 }, async (_, worker) => {
          for (let round = 0; round < 6; round++) {
            const id = flippable[(worker * 7 + round * 5) % flippable.length]!;
            try {
              await wide.db.transaction(async (tx) => {
                await tx.execute(sql`update bookings set status = case when status = 'cancelled' then 'confirmed' else 'cancelled' end where id = ${id}`);
                await tx.execute(sql`select pg_sleep(0.005)`);
              });
            } catch (error) {
              errors.push(error);
            }
          }
        }),
      );
      expect(errors.map((e) => String((e as { cause?: unknown }).cause ?? e))).toEqual([]);
      expect(await counterDrift()).toEqual([]);
      const counted = await rowsOf<{ n: number }>(sql`select coalesce(sum(n), 0)::int as n from host_booking_counts where user_id = ${hosts[0]!.id}`);
      expect(counted[0]!.n).toBe(16 + 12 + 4 * 12 + 1);
    } finally {
      setDatabase(shared);
      await wide.close();
    }
  });
});
