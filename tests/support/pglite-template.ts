import { writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import v8 from "node:v8";
import type { TestProject } from "vitest/node";
import { openPglite } from "@/db/client";

// A new PGlite runs initdb and then every migration: seconds per test file. Done once here,
// for the whole run, and dumped; each file's database starts as a copy of that dump
// (tests/support/database.ts), so every file still owns its database.
//
// Once for the run, not once per project: vitest runs every project's global setup one after
// the other before the first test file starts, so a template per project (pglite, tz-new-york)
// would keep the workers waiting for each. The projects share one, made by whichever asks first
// and removed when the last one is done.

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

type Template = { file: Promise<string>; dir: Promise<string>; users: number };
const run = globalThis as { __bookingPgliteTemplate?: Template };

async function makeTemplate(dir: string): Promise<string> {
  const file = path.join(dir, "template.tar");
  // This process compiles PGlite's WebAssembly once, to run initdb and the migrations: like the
  // test workers (vitest.config.mts), it skips V8's optimising tier, which would not pay off in
  // these seconds (initdb took 2.1 s instead of 3.7 s). The runner runs no other WebAssembly of note.
  v8.setFlagsFromString("--liftoff-only");
  const database = await openPglite(undefined);
  try {
    await database.migrate();
    await writeFile(file, Buffer.from(await (await database.dump!()).arrayBuffer()));
  } finally {
    await database.close();
  }
  return file;
}

export default async function setup(project: TestProject) {
  let template = run.__bookingPgliteTemplate;
  if (!template) {
    const dir = mkdtemp(path.join(tmpdir(), "booking-pglite-template-"));
    template = run.__bookingPgliteTemplate = { dir, file: dir.then(makeTemplate), users: 0 };
  }
  template.users += 1;
  project.provide("pgliteTemplate", await template.file);
  return async () => {
    template.users -= 1;
    if (template.users > 0) return;
    if (run.__bookingPgliteTemplate === template) run.__bookingPgliteTemplate = undefined;
    await rm(await template.dir, { recursive: true, force: true });
  };
}
