import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import * as schema from "@/db/schema";
import { createScratchDatabase } from "../support/scratch-database";

// Many instances started together on one empty PostgreSQL (a deploy of N web processes and M
// workers): migrations run once, under an advisory lock, and every process starts. Real
// processes, each with its own connections, as in production. PostgreSQL only (PGlite is one
// process); in CI the PostgreSQL run is mandatory (vitest.config.mts).

const onPostgres = process.env.TEST_DB === "postgres";
const PROCESSES = 4;
const journal = JSON.parse(readFileSync(path.join(process.cwd(), "db", "migrations", "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };

type Exit = { code: number | null; stdout: string; stderr: string };

function startProcess(databaseUrl: string): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join("tests", "support", "migrate-child.mts")], {
      cwd: process.cwd(),
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("migrations when many processes start together", () => {
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await drop?.();
  });

  it.skipIf(!onPostgres)(`${PROCESSES} processes on one empty database all start, and each migration is applied once`, async () => {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
    drop = scratch.drop;

    const exits = await Promise.all(Array.from({ length: PROCESSES }, () => startProcess(scratch.url)));
    for (const exit of exits) expect(exit, exit.stderr).toMatchObject({ code: 0 });

    const sql = postgres(scratch.url, { max: 1, onnotice: () => {} });
    try {
      const applied = await sql<{ hash: string; times: number }[]>`select hash, count(*)::int as times from drizzle.__drizzle_migrations group by hash`;
      expect(applied).toHaveLength(journal.entries.length);
      expect(applied.every((row) => row.times === 1)).toBe(true);

      // The schema is complete: every table and column of db/schema, and the hand-written
      // constraints Drizzle cannot express.
      const columns = await sql<{ table_name: string; column_name: string }[]>`
        select table_name, column_name from information_schema.columns where table_schema = 'public'`;
      const present = new Set(columns.map((c) => `${c.table_name}.${c.column_name}`));
      const tables: PgTable[] = Object.values(schema as Record<string, unknown>).filter((value): value is PgTable => is(value, PgTable));
      const expected = tables.flatMap((table) => {
          const config = getTableConfig(table);
          return config.columns.map((column) => `${config.name}.${column.name}`);
        });
      expect(expected.length).toBeGreaterThan(100);
      expect(expected.filter((name) => !present.has(name))).toEqual([]);
      const exclusions = await sql<{ conname: string }[]>`select conname from pg_constraint where contype = 'x' order by conname`;
      expect(exclusions.map((c) => c.conname)).toContain("booking_hosts_no_overlap");

      // No process still holds the lock.
      const held = await sql`select 1 from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`;
      expect(held).toHaveLength(0);
    } finally {
      await sql.end();
    }
  });
});
