// `npm run doctor`: checks the configuration `npm start` would use, live (the database and its
// migrations, the encryption key, mail, OAuth clients, the CalDAV server, the rate-limit store,
// APP_URL, the webhook address policy), prints a table with a fix for each problem, and exits 1
// when something a user would hit is broken (warnings do not fail). `--json` prints the report
// as GET /api/v1/health?full=1 answers it.
import { loadEnvConfig } from "@next/env";
import { ConfigError, parseConfig, setConfig, type Config } from "@/lib/config";
import { runDoctor } from "@/lib/ops/doctor";
import { cliDatabase } from "@/lib/ops/sources";
import { formatTable } from "@/lib/ops/table";

// As `npm start` does (server.mjs): production unless told otherwise, and the same .env files Next.js reads.
(process.env as Record<string, string | undefined>).NODE_ENV ??= "production";
loadEnvConfig(process.cwd(), process.env.NODE_ENV !== "production", { info: () => {}, error: (...args: unknown[]) => console.error(...args) });
const asJson = process.argv.includes("--json");

async function main(): Promise<number> {
  let config: Config;
  try {
    config = parseConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const finding = error.message.replace(/^Invalid configuration:\s*/, "").replace(/\s*\n\s*/g, "; ");
    const row = { check: "configuration", status: "fail" as const, finding, fix: "correct the variables named (README: Configuration); the service does not start until then" };
    process.stdout.write(asJson ? `${JSON.stringify({ status: "fail", checks: [row] }, null, 2)}\n` : `${formatTable([row])}\n`);
    return 1;
  }
  setConfig(config);
  const database = cliDatabase(config);
  try {
    const report = await runDoctor({ config, env: process.env, database, runner: "cli" });
    if (asJson) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else {
      const count = (s: "fail" | "warn") => report.checks.filter((c) => c.status === s).length;
      const counts = [`${count("fail")} failed`, `${count("warn")} ${count("warn") === 1 ? "warning" : "warnings"}`];
      process.stdout.write(`Checked as NODE_ENV=${config.nodeEnv}, APP_URL=${config.appUrl}\n${formatTable(report.checks)}\n${counts.join(", ")}\n`);
    }
    return report.status === "fail" ? 1 : 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`doctor: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
