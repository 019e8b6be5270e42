import { openPostgres } from "@/db/client";

// Migrate the PostgreSQL test database once, before the parallel test files connect to it.
export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DATABASE_URL is required for the postgres project");
  const database = await openPostgres(url, { max: 1 });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
}
