import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openPostgres } from "@/db/client";
import { bookingHosts, bookings } from "@/db/schema";
import { getDatabase, setDatabase } from "@/lib/store/database";
import { api } from "../support/api";
import { book, clientHeaders, dateIn, guest, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { teamWithType } from "../support/teams";

// The walk of a host's changes (decisions §18) under writers that truly overlap, on PostgreSQL's
// own connections: while guests book and hosts cancel, confirm and move one host's bookings
// (personal ones, requests, and collective ones the other host of the team changes), a poller
// walks the host's changes every ~50 ms, limit 3, each walk starting at the greatest updatedAt
// it has read (as a client polling every minute would). Afterwards every booking's final version
// was read, and no walk read a version twice. PGlite has one connection and serialises every
// writer, so the race exists only here.

// A database of its own: the test slows every write of it down (below).
const test = withTestDatabase({ isolated: true });
const onPostgres = process.env.TEST_DB === "postgres";
const WRITE_FOR_MS = 6_000;
const WRITERS = 12;

type Version = { id: string; updatedAt: string };

/** One walk from `since`, limit 3, to its end: the versions read, in order. */
async function walkFrom(host: TestHost, since: string): Promise<Version[]> {
  const read: Version[] = [];
  let query = `updatedSince=${since}`;
  for (;;) {
    const res = await api.get(`/me/bookings?limit=3&${query}`, { token: host.token });
    if (res.status !== 200) throw new Error(`walk: ${res.status} ${JSON.stringify(res.body)}`);
    read.push(...res.body.data.map((b: any) => ({ id: b.id, updatedAt: b.updatedAt })));
    if (res.body.pagination.nextCursor === null) return read;
    query = `cursor=${res.body.pagination.nextCursor}`;
  }
}

describe("the walk of changes under concurrent writers (PostgreSQL)", () => {
  it.skipIf(!onPostgres)("misses no change and reads no version twice within a walk", async () => {
    const host = await createHost({ timezone: "UTC" });
    const other = await createHost({ timezone: "UTC" });
    const date = dateIn(9, "UTC");
    for (const h of [host, other]) await openOnly(h, date, [{ startTime: "00:00", endTime: "24:00" }]);
    const personal = await createEventType(host, { durationMinutes: 15 });
    const asks = await createEventType(host, { durationMinutes: 15, requiresConfirmation: true });
    const { team, eventType: collective } = await teamWithType(host, [other], { schedulingType: "collective", durationMinutes: 15 });
    const slot = (i: number) => new Date(Date.parse(`${date}T00:00:00Z`) + (i % 96) * 15 * 60_000).toISOString().replace(".000", "");
    const random = (n: number) => Math.floor(Math.random() * n);

    const shared = test.current();
    // Every write of a booking dawdles up to 150 ms after its stamp, before its commit: the window
    // in which a writer without the hosts' locks lets another change of the host, stamped later,
    // commit first (a walk then passes its stamp before it is visible). With the locks the walk
    // is right however long the window; without them this makes the miss likely, not rare.
    await shared.db.execute(sql.raw(`
      create function test_dawdle() returns trigger language plpgsql as $$ begin perform pg_sleep(random() * 0.15); return null; end $$;
      create trigger test_dawdle after insert or update on bookings for each row execute function test_dawdle();`));
    const wide = await openPostgres(test.url()!, { max: WRITERS + 4 });
    setDatabase(wide);
    const made: { id: string; pending: boolean; team: boolean; cancelled?: boolean }[] = [];
    const unexpected: unknown[] = [];
    const walks: Version[][] = [];
    let writes = 0;
    try {
      await Promise.all(Array.from({ length: WRITERS + 4 }, () => wide.db.execute("select pg_sleep(0.05)")));
      const until = Date.now() + WRITE_FOR_MS;
      const writer = async (n: number) => {
        while (Date.now() < until) {
          const pick = made[random(made.length)];
          const kind = made.length < 6 ? 0 : random(5);
          let res: { status: number; body: any };
          if (kind === 0) {
            // A new booking: personal, a request, or the team's (both hosts).
            const which = random(3);
            res =
              which === 2
                ? await api.post(`/public/teams/${team.slug}/${collective.slug}/bookings`, { startTime: slot(random(96)), ...guest() }, { headers: { "idempotency-key": randomUUID(), ...clientHeaders() } })
                : await book(host, which === 0 ? personal.slug : asks.slug, slot(random(96)));
            if (res.status === 201) made.push({ id: res.body.id, pending: res.body.status === "pending", team: which === 2 });
          } else if (kind === 1 || kind === 2) {
            // Cancelled by a host of it: a team booking by either.
            const live = made.filter((m) => !m.cancelled);
            const target = live[random(live.length)];
            if (!target) continue;
            target.cancelled = true;
            res = await api.post(`/me/bookings/${target.id}/cancel`, {}, { token: (target.team && n % 2 ? other : host).token });
          } else if (kind === 3) {
            const request = made.filter((m) => m.pending)[0];
            if (!request) continue;
            request.pending = false;
            res = await api.post(`/me/bookings/${request.id}/confirm`, undefined, { token: host.token });
          } else if (pick) {
            res = await api.post(`/me/bookings/${pick.id}/reschedule`, { startTime: slot(random(96)) }, { token: host.token });
          } else continue;
          writes += 1;
          // 409: a slot taken, a booking cancelled or confirmed a moment before.
          if (![200, 201, 409].includes(res.status)) unexpected.push(res.body);
        }
      };
      const poller = async () => {
        let since = "2000-01-01T00:00:00Z";
        const pass = async () => {
          const read = await walkFrom(host, since);
          walks.push(read);
          for (const v of read) if (v.updatedAt > since) since = v.updatedAt;
        };
        while (!writersDone) {
          await pass();
          await new Promise((r) => setTimeout(r, 50));
        }
        // Every writer has answered: the next poll finds what committed last.
        await pass();
      };
      let writersDone = false;
      const polled = poller();
      await Promise.all(Array.from({ length: WRITERS }, (_, n) => writer(n)));
      writersDone = true;
      await polled;
    } finally {
      setDatabase(shared);
      await wide.close();
    }
    expect(unexpected, JSON.stringify(unexpected.slice(0, 5))).toEqual([]);

    // Within a walk, no version twice.
    for (const read of walks) {
      const keys = read.map((v) => `${v.id}@${v.updatedAt}`);
      expect(keys.length - new Set(keys).size, `a walk read a version twice: ${keys.join(" ")}`).toBe(0);
    }
    // Every booking of the host, as it finally is, was read at its final updatedAt.
    const seen = new Set(walks.flat().map((v) => `${v.id}@${v.updatedAt}`));
    const finals = await (await getDatabase()).db
      .select({ id: bookings.id, updatedAt: bookings.updatedAt })
      .from(bookingHosts)
      .innerJoin(bookings, eq(bookings.id, bookingHosts.bookingId))
      .where(eq(bookingHosts.userId, host.id));
    const missed = finals.map((f) => `${f.id}@${f.updatedAt.toISOString()}`).filter((k) => !seen.has(k));
    expect(missed, `missed ${missed.length} of ${finals.length} final versions`).toEqual([]);
    expect(finals.length).toBeGreaterThan(10);
    console.info(`[walk race] ${writes} writes, ${finals.length} bookings, ${walks.length} walks, ${seen.size} versions read`);
  });

  it.runIf(!onPostgres)("needs PostgreSQL: set TEST_DATABASE_URL to run it in the postgres project", () => {
    // With TEST_DATABASE_URL the postgres project runs it; without, CI must not pass silently.
    if (process.env.TEST_DATABASE_URL) return;
    if (process.env.CI === "true") expect.fail("CI=true requires TEST_DATABASE_URL: the walk's race test must run");
    console.warn("[walk race] TEST_DATABASE_URL is not set: the walk of changes under concurrent writers was skipped");
  });
});
