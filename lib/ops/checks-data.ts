import "server-only";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Database } from "@/db/client";
import { currentKeyId, open, seal } from "@/lib/secret-box";
import { appliedMigrations, sealedKeyIds } from "@/lib/store/doctor-queries";
import { errorText, type Check, type CheckContext, type Finding } from "./types";

// The database, its migrations, and the key that opens what it stores.

type JournalEntry = { when: number; tag: string };

function journal(): JournalEntry[] {
  const file = path.join(process.cwd(), "db", "migrations", "meta", "_journal.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { entries: JournalEntry[] }).entries;
}

async function reachable(ctx: CheckContext): Promise<{ database: Database | undefined } | { error: unknown }> {
  try {
    const database = await ctx.database.open();
    await database?.ping();
    return { database };
  } catch (error) {
    return { error };
  }
}

const database: Check = {
  name: "database",
  // Opening an embedded database compiles PGlite first: seconds on a small machine.
  timeoutMs: 20_000,
  async run(ctx) {
    const state = await reachable(ctx);
    if ("error" in state) {
      return ctx.config.databaseUrl
        ? {
            status: "fail",
            finding: `${ctx.database.describe} does not answer: ${errorText(state.error)}`,
            fix: "check DATABASE_URL (host, port, user, password, database name) and that PostgreSQL is running: pg_isready -d \"$DATABASE_URL\"",
          }
        : { status: "fail", finding: `${ctx.database.describe} cannot be opened: ${errorText(state.error)}`, fix: "check that DATA_DIR is writable by this user, or delete a damaged DATA_DIR/pglite (restore it from a backup)" };
    }
    if (!state.database) return { status: "ok", finding: `${ctx.database.describe}: not created yet; the first start creates it` };
    return { status: "ok", finding: `${ctx.database.describe} answers` };
  },
};

const migrations: Check = {
  name: "migrations",
  timeoutMs: 10_000,
  async run(ctx) {
    const entries = journal();
    const state = await reachable(ctx);
    if ("error" in state) return { status: "warn", finding: "not checked: the database does not answer", fix: "fix the database row first" };
    if (!state.database) return { status: "ok", finding: `none applied yet: the first start applies all ${entries.length}` };
    const applied = await appliedMigrations(state.database.db);
    if (!applied || applied.length === 0) return { status: "ok", finding: `empty database: the first start applies all ${entries.length}` };
    // Drizzle's migrator applies every journal entry newer than the last applied one.
    const last = Math.max(...applied);
    const pending = entries.filter((e) => e.when > last);
    const newest = entries.at(-1)!;
    if (last > newest.when) {
      return {
        status: "fail",
        finding: `the database has migrations this build does not know (it is from a newer release than ${newest.tag})`,
        fix: "run the release that migrated this database (or newer); downgrading is not supported: restore the backup taken before the upgrade",
      };
    }
    if (pending.length > 0) {
      return {
        status: "warn",
        finding: `${pending.length} of ${entries.length} pending (${pending.map((e) => e.tag).join(", ")})`,
        fix: "start (or restart) the service: it applies pending migrations on start, once, before serving",
      };
    }
    return { status: "ok", finding: `all ${entries.length} applied (last ${newest.tag})` };
  },
};

const encryptionKey: Check = {
  name: "encryption key",
  timeoutMs: 5_000,
  async run(ctx): Promise<Finding> {
    const source = ctx.env.ENCRYPTION_KEY ? "ENCRYPTION_KEY" : `the key generated in ${path.join(ctx.config.dataDir, "secrets.json")}`;
    const probe = `doctor-${Date.now()}`;
    if (open(seal(probe, "doctor"), "doctor") !== probe) {
      return { status: "fail", finding: `${source} cannot seal and open a value`, fix: "set ENCRYPTION_KEY to 32 random bytes, base64: openssl rand -base64 32" };
    }
    const keyId = currentKeyId();
    const state = await reachable(ctx);
    if ("error" in state || !state.database || !(await appliedMigrations(state.database.db))?.length) {
      return { status: "ok", finding: `${source} (key id ${keyId}) seals and opens; nothing stored to compare with` };
    }
    const stored = await sealedKeyIds(state.database.db);
    const foreign = stored.filter((s) => s.keyId !== keyId);
    if (foreign.length > 0) {
      const what = foreign.map((s) => `${s.count} ${s.where} (key id ${s.keyId})`).join(", ");
      return {
        status: "fail",
        finding: `values in the database were sealed under another key: ${what}; the current key is ${keyId}. Calendars, webhook signatures and guest links in emails break`,
        fix: "set ENCRYPTION_KEY back to the key those values were sealed with (its id is in the finding); a key that was lost cannot be recovered: hosts reconnect calendars and rotate webhook secrets",
      };
    }
    const count = stored.reduce((n, s) => n + s.count, 0);
    const stores = count === 0 ? "nothing sealed is stored yet" : `the ${count} stored values checked were sealed under it`;
    if (ctx.config.nodeEnv === "production" && !ctx.env.ENCRYPTION_KEY && existsSync(path.join(ctx.config.dataDir, "secrets.json"))) {
      return { status: "warn", finding: `${source} (key id ${keyId}) seals and opens; ${stores}. It lives beside the data`, fix: "keep DATA_DIR/secrets.json backed up, or move the key to ENCRYPTION_KEY with your other secrets" };
    }
    return { status: "ok", finding: `${source} (key id ${keyId}) seals and opens; ${stores}` };
  },
};

export const databaseChecks: Check[] = [database, migrations, encryptionKey];
