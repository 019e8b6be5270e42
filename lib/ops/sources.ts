import "server-only";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openPglite, openPostgres, type Database } from "@/db/client";
import type { Config } from "@/lib/config";
import { getDatabase } from "@/lib/store/database";
import { withoutCredentials, type DatabaseSource } from "./types";

// Which database the doctor reads. The server reads its own (already open and migrated). The CLI
// opens one without migrating, since checking is not changing; an embedded PGlite directory must
// never be opened by two processes, so it reads a copy and leaves the running instance's alone.

export function processDatabase(config: Config): DatabaseSource {
  return { describe: describeDatabase(config), open: () => getDatabase() };
}

export type ClosableSource = DatabaseSource & { close(): Promise<void> };

export function cliDatabase(config: Config): ClosableSource {
  let opened: Promise<Database | undefined> | undefined;
  let copy: string | undefined;
  const open = async (): Promise<Database | undefined> => {
    if (config.databaseUrl) return openPostgres(config.databaseUrl, { max: 1 });
    const dir = path.join(config.dataDir, "pglite");
    if (!existsSync(dir)) return undefined;
    copy = await mkdtemp(path.join(tmpdir(), "doctor-pglite-"));
    await cp(dir, copy, { recursive: true });
    return openPglite(copy);
  };
  return {
    describe: describeDatabase(config),
    open: () => (opened ??= open()),
    async close() {
      const database = await opened?.catch(() => undefined);
      await database?.close().catch(() => {});
      if (copy) await rm(copy, { recursive: true, force: true });
    },
  };
}

function describeDatabase(config: Config): string {
  return config.databaseUrl ? `PostgreSQL ${withoutCredentials(config.databaseUrl)}` : `PGlite in ${path.join(config.dataDir, "pglite")}`;
}
