import { writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openPglite } from "@/db/client";

// A new PGlite runs initdb and then every migration: seconds per test file. Done once here,
// for the whole run, and dumped; each file's database starts as a copy of that dump
// (tests/support/database.ts), so every file still owns its database.

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(tmpdir(), "booking-pglite-template-"));
  const file = path.join(dir, "template.tar");
  const database = await openPglite(undefined);
  try {
    await database.migrate();
    await writeFile(file, Buffer.from(await (await database.dump!()).arrayBuffer()));
  } finally {
    await database.close();
  }
  project.provide("pgliteTemplate", file);
  return () => rm(dir, { recursive: true, force: true });
}
