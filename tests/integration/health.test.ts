import { readFile } from "node:fs/promises";
import { describe, expect, inject, it } from "vitest";
import { setDatabase } from "@/lib/store/database";
import { openPglite } from "@/db/client";
import { api } from "../support/api";
import { withTestDatabase } from "../support/database";

const db = withTestDatabase();

describe("GET /health", () => {
  it("answers 200 while the database answers", async () => {
    const res = await api.get("/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });

  it("answers 503 with a JSON error when the database does not", async () => {
    // A database that was open and is gone. On PGlite runs, a copy of the run's migrated template:
    // a fresh PGlite would run initdb first, seconds of it.
    const template = inject("pgliteTemplate") as string | undefined;
    const broken = await openPglite(undefined, template ? { template: new Blob([await readFile(template)]) } : {});
    await broken.close();
    setDatabase(broken);
    try {
      const res = await api.get("/health");
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: "service_unavailable", details: {} });
    } finally {
      setDatabase(db.current());
    }
    expect((await api.get("/health")).status).toBe(200);
  });
});
