import "server-only";
import type { Database } from "@/db/client";
import type { Config } from "@/lib/config";
import { getConfig } from "@/lib/config";
import { databaseChecks } from "./checks-data";
import { oidc } from "./checks-oidc";
import { payments } from "./checks-payments";
import { serviceChecks } from "./checks-services";
import { processDatabase } from "./sources";
import { errorText, redact, worst, type Check, type CheckContext, type CheckResult, type DatabaseSource, type DoctorReport, type Finding } from "./types";

export type { CheckResult, CheckStatus, DatabaseSource, DoctorReport } from "./types";

// `npm run doctor` and GET /api/v1/health?full=1: the configuration a running instance would use,
// checked live, one row per part. `fail` means a user would hit it (a guest gets no email, a host
// cannot connect a calendar, the service does not start); `warn` is worth knowing but works.
// Every check has its own time limit, and nothing it reports carries a secret.

async function runOne(check: Check, ctx: Omit<CheckContext, "signal">): Promise<CheckResult[]> {
  const started = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Finding>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ status: "fail", finding: `no answer within ${check.timeoutMs / 1000} s`, fix: "see the other rows; a host or port that drops packets (a firewall) looks like this" });
    }, check.timeoutMs);
  });
  let findings: Finding[];
  try {
    const result = await Promise.race([check.run({ ...ctx, signal: controller.signal }), timeout]);
    findings = Array.isArray(result) ? result : [result];
    // A check of several rows that ran out of time: each of its rows says so.
    if (check.names && findings.length === 1) findings = check.names.map(() => findings[0]!);
  } catch (error) {
    findings = [{ status: "fail", finding: `the check itself failed: ${errorText(error)}` }];
  } finally {
    clearTimeout(timer);
  }
  const ms = Math.round(performance.now() - started);
  return findings.map((f, i) => ({
    check: check.names?.[i] ?? check.name,
    status: f.status,
    finding: redact(f.finding, ctx.config, ctx.env),
    ...(f.fix !== undefined && f.status !== "ok" ? { fix: redact(f.fix, ctx.config, ctx.env) } : {}),
    ms,
  }));
}

export const ALL_CHECKS: Check[] = [...databaseChecks, ...serviceChecks, payments, oidc];

/**
 * Runs the checks. The database ones go one after the other (the migrations check reads the
 * database the first one opened); the others at the same time, each within its own limit.
 */
export async function runDoctor(
  options: { config: Config; env: Record<string, string | undefined>; database: DatabaseSource; runner: "cli" | "server"; now?: Date },
  checks: Check[] = ALL_CHECKS,
): Promise<DoctorReport> {
  const ctx = { config: options.config, env: options.env, database: memoized(options.database), runner: options.runner };
  const sequential = checks.filter((c) => databaseChecks.includes(c));
  const parallel = checks.filter((c) => !databaseChecks.includes(c));
  const others = Promise.all(parallel.map((c) => runOne(c, ctx)));
  const first: CheckResult[] = [];
  for (const check of sequential) first.push(...(await runOne(check, ctx)));
  const results = [...first, ...(await others).flat()];
  return { status: worst(results.map((r) => r.status)), checkedAt: (options.now ?? new Date()).toISOString(), checks: results };
}

function memoized(source: DatabaseSource): DatabaseSource {
  let opened: Promise<Database | undefined> | undefined;
  return { describe: source.describe, open: () => (opened ??= source.open()) };
}

/** The report of the running process (GET /api/v1/health?full=1): its own configuration and database. */
export function runDoctorInProcess(): Promise<DoctorReport> {
  const config = getConfig();
  return runDoctor({ config, env: process.env, database: processDatabase(config), runner: "server" });
}
