import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, type Database } from "@/db/client";
import { setDatabase } from "@/lib/store/database";
import { api } from "../support/api";
import { dateIn } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { seedGrowth } from "../support/growth";
import { as, teamWithType } from "../support/teams";

// The insights and the CSV export read what the range holds through the host's index of
// booking_hosts (user_id, start_time, booking_id), and each booking, event type, host and
// username by its key: never a table from end to end, and for a month not the host's whole past.
// On a grown database (as tests/integration/query-plans.test.ts: 500 hosts, 50,000 bookings, a
// host with 5,000 past bookings and 300 collective team bookings), the statements the route
// really sends (captured from the driver, with their parameters) are EXPLAINed (ANALYZE).
// What a join planned from the planner's guess of the host's entries did on the growth bench's
// database: hashed all 1,000,000 bookings for 7,500 (1 s); lib/services/insights/insights.ts.

const onPostgres = process.env.TEST_DB === "postgres";
const test = withTestDatabase({ isolated: true });
const WATCHED = ["bookings", "booking_hosts", "event_types", "users"];

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
};
function nodes(node: PlanNode, found: PlanNode[] = []): PlanNode[] {
  found.push(node);
  for (const child of node.Plans ?? []) nodes(child, found);
  return found;
}

describe.runIf(onPostgres)("plans of the insights and the CSV export on a grown database (PostgreSQL)", () => {
  let host: TestHost;
  let sql: postgres.Sql;
  let logging: Database;
  const captured: { text: string; params: unknown[] }[] = [];

  beforeAll(async () => {
    host = await createHost({ timezone: "Europe/Berlin" });
    const colleague = await createHost({ timezone: "Asia/Kolkata" });
    const eventType = await createEventType(host, { durationMinutes: 30 });
    const { eventType: teamType } = await teamWithType(host, [colleague], { schedulingType: "collective" });
    sql = postgres(test.url()!, { max: 1, onnotice: () => {} });
    // 300 collective bookings of the last 300 days, between two of the host's own (on the half hour).
    await sql`
      with made as (
        insert into bookings (id, host_id, event_type_id, status, start_time, end_time, blocked_start, blocked_end,
          guest_name, guest_email, guest_timezone, cancel_token_hash, created_at)
        select 'plan_team_' || d, ${host.id}, ${teamType.id}, 'confirmed', t, t + interval '30 minutes', t, t + interval '30 minutes',
          'Team guest', 'team-' || d || '@example.com', 'UTC', 'plan_team_tok_' || d, t - interval '3 days'
        from generate_series(1, 300) d, lateral (select date_trunc('hour', now()) - interval '1 day' - d * interval '1 day' + interval '30 minutes' as t) s
        returning id, blocked_start, blocked_end, start_time, status)
      insert into booking_hosts (booking_id, user_id, blocked_start, blocked_end, cancelled, start_time, status)
      select id, ${colleague.id}, blocked_start, blocked_end, false, start_time, status from made`;
    await seedGrowth(sql, {
      hosts: 500,
      bookings: 50_000,
      busyIntervals: 0,
      outboxJobs: 0,
      focus: { userId: host.id, eventTypeId: eventType.id, pastBookings: 5_000 },
    });
    logging = await openPostgres(test.url()!, { max: 4, onStatement: (text, params) => captured.push({ text, params }) });
  }, 240_000);

  afterAll(async () => {
    setDatabase(test.current());
    await logging?.close();
    await sql?.end();
  });

  /** The selects `work` sends on the logging database. */
  async function selectsOf(work: () => Promise<unknown>): Promise<{ text: string; params: unknown[] }[]> {
    captured.length = 0;
    setDatabase(logging);
    try {
      await work();
    } finally {
      setDatabase(test.current());
    }
    return captured.splice(0).filter((s) => /^\s*(select|with)\b/i.test(s.text) && !/pg_catalog\.pg_type/.test(s.text));
  }

  /** Every plan node of the statements, as run (EXPLAIN ANALYZE, JIT off as the service runs them). */
  async function planned(statements: { text: string; params: unknown[] }[]): Promise<PlanNode[]> {
    const all: PlanNode[] = [];
    for (const s of statements) {
      const [row] = await sql.begin(async (tx) => {
        await tx`set local jit = off`;
        return tx.unsafe(`explain (analyze, format json) ${s.text}`, s.params as postgres.ParameterOrJSON<never>[]);
      });
      all.push(...nodes((row!["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan));
    }
    return all;
  }

  const seqScans = (all: PlanNode[]) => all.filter((n) => n["Node Type"] === "Seq Scan" && WATCHED.includes(n["Relation Name"] ?? "")).map((n) => n["Relation Name"]);
  const entriesRead = (all: PlanNode[]) =>
    all.filter((n) => n["Relation Name"] === "booking_hosts").reduce((sum, n) => sum + ((n["Actual Rows"] ?? 0) + (n["Rows Removed by Filter"] ?? 0)) * (n["Actual Loops"] ?? 1), 0);

  it("a year's insights read no table from end to end; a month's read the month, not the host's 5,000-booking past", async () => {
    let year: { totals: { bookings: number }; byHost: unknown[] } | undefined;
    const yearStatements = await selectsOf(async () => {
      const res = await api.get(`/me/insights?from=${dateIn(-366, "Europe/Berlin")}&to=${dateIn(-1, "Europe/Berlin")}`, as(host));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      year = res.body;
    });
    expect(year!.totals.bookings).toBeGreaterThan(4_000);
    expect(year!.byHost).toHaveLength(2);
    const yearPlan = await planned(yearStatements);
    expect(yearStatements.some((s) => s.text.includes("percentile_cont"))).toBe(true);
    expect(seqScans(yearPlan), JSON.stringify(yearPlan.map((n) => [n["Node Type"], n["Relation Name"] ?? ""]))).toEqual([]);

    let month = 0;
    const monthStatements = await selectsOf(async () => {
      const res = await api.get(`/me/insights?from=${dateIn(-31, "Europe/Berlin")}&to=${dateIn(-1, "Europe/Berlin")}`, as(host));
      expect(res.status).toBe(200);
      month = res.body.totals.bookings;
    });
    const monthPlan = await planned(monthStatements);
    expect(seqScans(monthPlan)).toEqual([]);
    // The month's entries, once to count them and once more for the team bookings' hosts: not the past.
    expect(month).toBeGreaterThan(300);
    expect(entriesRead(monthPlan)).toBeLessThan(3 * month);
  });

  it("the CSV export walks the index a step at a time, each step from where the last ended", async () => {
    let rows = 0;
    const statements = await selectsOf(async () => {
      const res = await api.get(`/me/bookings?format=csv&from=${dateIn(-120, "Europe/Berlin")}&to=${dateIn(-1, "Europe/Berlin")}`, as(host));
      expect(res.status).toBe(200);
      rows = (res.body as string).split("\r\n").length - 2; // the header, and the empty string after the last CRLF
    });
    expect(rows).toBeGreaterThan(1_000); // two steps at least
    const steps = statements.filter((s) => /from "booking_hosts"/.test(s.text) && /limit/i.test(s.text));
    expect(steps.length).toBeGreaterThanOrEqual(2);
    // Each step reads its own entries (1,000 at most) from the index, not those before it. (A
    // step's 1,000 bookings and their people are read by key on a big database; on this one, of
    // 55,000 bookings, the planner rightly reads the table whole for 1,000 keys.)
    for (const step of steps) {
      const plan = await planned([step]);
      expect(seqScans(plan)).toEqual([]);
      expect(entriesRead(plan)).toBeLessThanOrEqual(1_000);
    }
  });
});
