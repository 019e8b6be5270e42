// One process starting against DATABASE_URL, as `npm start` does before it serves: open the
// database and apply pending migrations (db/client.ts, under the advisory lock). Run by
// tests/integration/migrations-concurrent.test.ts, four at once; prints how long it took.
import { openPostgres } from "../../db/client";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL is required");
const started = performance.now();
const database = await openPostgres(url, { max: 2 });
try {
  await database.migrate();
  process.stdout.write(`${JSON.stringify({ pid: process.pid, ms: Math.round(performance.now() - started) })}\n`);
} finally {
  await database.close();
}
