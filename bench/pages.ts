// The booking page over HTTP (bench/run.ts, section 6): GET /{username}/{slug}, a team's
// /team/{teamSlug}/{slug} and /{username}/{slug}?embed=1, each beside Next.js alone answering
// the same bytes at the same path (bench/ceiling/pages.js), and a crowd: 5,000 first visits to
// one link within 10 seconds, each on a new connection with no cookie, in the languages guests'
// browsers ask for, starting from a page no guest has asked for yet.
import { request } from "node:http";
import { call, expectOk, percentile, say, table } from "./harness";

/** Every date from yesterday to the end of this month (UTC). */
function restOfThisMonth(now: number): string[] {
  const today = new Date(now);
  const month = today.getUTCMonth();
  const dates: string[] = [];
  for (const d = new Date(Date.UTC(today.getUTCFullYear(), month, today.getUTCDate() - 1)); d.getUTCMonth() === month || d < today; d.setUTCDate(d.getUTCDate() + 1)) {
    dates.push(d.toISOString().slice(0, 10));
  }
  return dates;
}

/**
 * A host whose page shows a whole month of open times: weekdays 09:00–16:00 in Berlin, 30
 * minutes (14 a day, 280–322 a month), none left in this month, so the first open month the page
 * shows is the next one, whatever the date. Answers the page's path and how many times its month has.
 */
export async function seedPageHost(base: string): Promise<{ path: string; auth: Record<string, string>; openTimes: number }> {
  const username = `page-${Date.now().toString(36)}`;
  const password = "bench-password-123";
  const timezone = "Europe/Berlin";
  await expectOk("register", call(base, "POST", "/api/v1/auth/register", { email: `${username}@example.com`, password, fullName: "Page Host", username, timezone }));
  const login = await expectOk("login", call(base, "POST", "/api/v1/auth/login", { email: `${username}@example.com`, password }));
  const auth = { authorization: `Bearer ${String(login.json().accessToken)}` };
  const weeklyRules = [1, 2, 3, 4, 5].map((dayOfWeek) => ({ dayOfWeek, startTime: "09:00", endTime: "16:00" }));
  // The rest of this month (from yesterday, for a guest behind Berlin) is off.
  const dateOverrides = restOfThisMonth(Date.now()).map((date) => ({ date, available: false }));
  await expectOk("availability", call(base, "PUT", "/api/v1/me/availability", { timezone, minNoticeHours: 0, maxAdvanceDays: 90, weeklyRules, dateOverrides }, auth));
  await expectOk("event type", call(base, "POST", "/api/v1/me/event-types", { slug: "intro", title: "Intro call", durationMinutes: 30, description: "A first talk about your project." }, auth));
  const path = `/${username}/intro`;
  const html = (await expectOk("page", call(base, "GET", path))).text;
  const openTimes = [...html.matchAll(/aria-label="[^"]*, (\d+) open times?"/g)].reduce((n, m) => n + Number(m[1]), 0);
  return { path, auth, openTimes };
}

/** The page as the service answers it to a client that takes no compression (as the load generator): the ceiling's bytes. */
export async function pageBytes(base: string, path: string): Promise<string> {
  const res = await fetch(base + path, { headers: { "accept-encoding": "identity" } });
  if (res.status !== 200) throw new Error(`GET ${path}: HTTP ${res.status}`);
  return res.text();
}

export type CrowdResult = { sent: number; ok: number; failed: number; seconds: number; p50: number; p99: number; max: number };

/** Browsers' Accept-Language as guests send them: five languages, and English with another first weekday. */
const LANGUAGES = ["en-US,en;q=0.9", "de-DE,de;q=0.9,en;q=0.8", "fr-FR,fr;q=0.9", "es-ES,es;q=0.9", "pt-BR,pt;q=0.9", "en-GB,en;q=0.9"];

function visit(url: URL, headers: Record<string, string>): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    // agent: false: a connection of its own, as a guest's first request opens one.
    const req = request(url, { agent: false, headers: { connection: "close", ...headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      res.on("error", () => resolve({ status: 0, ms: performance.now() - started }));
    });
    req.on("error", () => resolve({ status: 0, ms: performance.now() - started }));
    req.end();
  });
}

/** `total` first visits to `url` spread evenly over `seconds`, each on its own connection, languages in turn. */
export async function crowd(url: string, total = 5_000, seconds = 10): Promise<CrowdResult> {
  const target = new URL(url);
  const started = performance.now();
  const visits: Promise<{ status: number; ms: number }>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * seconds * 1000) / total;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    // No Accept-Encoding: the service and the ceiling send the same bytes.
    visits.push(visit(target, { "accept-language": LANGUAGES[i % LANGUAGES.length]! }));
  }
  const answers = await Promise.all(visits);
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  const ok = answers.filter((a) => a.status === 200).length;
  return { sent: total, ok, failed: total - ok, seconds: (performance.now() - started) / 1000, p50: percentile(ms, 50), p99: percentile(ms, 99), max: ms.at(-1) ?? NaN };
}

export function sayCrowd(name: string, r: CrowdResult) {
  say(`  ${name}: ${r.ok}/${r.sent} answered 200 in ${r.seconds.toFixed(1)} s (${r.failed} not), p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(0)} ms`);
}

export type PageTarget = { name: string; path: string };
type Load = { rps: number; p50: number; p99: number; non2xx: number; errors: number; bytes: number };

/**
 * Each page beside the ceiling answering its bytes at its path, in `rounds` rounds (each page then
 * its ceiling, neighbours in time); then the crowd on the first page, from a page no guest has
 * asked for yet (`retire` changes its event type), and on the ceiling. Prints both, with targets.
 */
export async function runPageBench(args: {
  service: string;
  ceiling: string;
  pages: PageTarget[];
  rounds: number;
  load: (name: string, url: string) => Promise<Load>;
  retire: () => Promise<void>;
}): Promise<void> {
  const { service, ceiling, pages, rounds, load } = args;
  const results: { page: Load; ceiling: Load }[][] = [];
  for (let round = 0; round < rounds; round++) {
    const row: { page: Load; ceiling: Load }[] = [];
    for (const p of pages) row.push({ page: await load(`page: ${p.name}`, service + p.path), ceiling: await load(`ceiling: ${p.name}`, ceiling + p.path) });
    say(`  round ${round + 1}: ${row.map((r, i) => `${pages[i]!.name} ${r.page.rps.toFixed(0)} vs ${r.ceiling.rps.toFixed(0)} req/s`).join(" · ")}`);
    results.push(row);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
  say(`\n== Booking pages (medians of ${rounds} rounds; each ratio the median of the rounds' own)`);
  const rows = [["page", "bytes", "req/s", "p50 ms", "p99 ms", "non-2xx", "ceiling req/s", "ceiling p99 ms", "of ceiling", "p99 vs ceiling's", "targets (≥ 60 %, ≤ 1.5×)"]];
  for (const [i, p] of pages.entries()) {
    const mine = results.map((r) => r[i]!);
    const share = median(mine.map((r) => r.page.rps / r.ceiling.rps));
    const tail = median(mine.map((r) => r.page.p99 / r.ceiling.p99));
    rows.push([
      p.name,
      mine[0]!.page.bytes.toFixed(0),
      median(mine.map((r) => r.page.rps)).toFixed(0),
      median(mine.map((r) => r.page.p50)).toFixed(1),
      median(mine.map((r) => r.page.p99)).toFixed(1),
      String(mine.reduce((n, r) => n + r.page.non2xx + r.page.errors, 0)),
      median(mine.map((r) => r.ceiling.rps)).toFixed(0),
      median(mine.map((r) => r.ceiling.p99)).toFixed(1),
      `${(share * 100).toFixed(0)} %`,
      `${tail.toFixed(2)}×`,
      share >= 0.6 && tail <= 1.5 ? "met" : "MISSED",
    ]);
  }
  table(rows);

  const first = pages[0]!;
  say(`\n== The crowd: 5,000 first visits to ${first.path} within 10 s, each on a new connection, six browser languages in turn`);
  await args.retire();
  const mine = await crowd(service + first.path);
  sayCrowd("service (its page retired just before: the first visit in each language renders it)", mine);
  const theirs = await crowd(ceiling + first.path);
  sayCrowd("ceiling (Next.js alone, the same bytes at the same path)", theirs);
  say(
    `  → ${mine.ok === mine.sent ? "all answered" : `${mine.failed} NOT answered`}; p99 ${(mine.p99 / theirs.p99).toFixed(2)}× the ceiling's ` +
      `[target: all answered: ${mine.ok === mine.sent ? "met" : "MISSED"}]`,
  );
}
