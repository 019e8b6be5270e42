import { randomBytes } from "node:crypto";
import postgres from "postgres";

// A throw-away PostgreSQL database beside TEST_DATABASE_URL's (vitest and Playwright both use it).

/** A new, empty database next to the one `baseUrl` names; drop() removes it. */
export async function createScratchDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(baseUrl);
  const name = `${base.pathname.slice(1) || "booking"}_${randomBytes(5).toString("hex")}`.slice(0, 63);
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const own = new URL(base);
  own.pathname = `/${name}`;
  return {
    url: own.toString(),
    drop: async () => {
      const cleanup = postgres(baseUrl, { max: 1, onnotice: () => {} });
      try {
        await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
