import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const SOURCE = /\.(ts|tsx|mts|mjs)$/;

// The CalDAV client is a folder: its door (index.ts) is loaded by import() only, and its other
// modules, which load tsdav, ical.js and undici, only from inside the client. address.ts is apart:
// connect checks an address with it without the client, so it may import none of them.
const CALDAV = "lib/calendars/caldav";
const caldavClient = readdirSync(path.join(ROOT, CALDAV))
  .filter((name) => SOURCE.test(name) && !/\.test\.tsx?$/.test(name) && name !== "address.ts")
  .map((name) => `${CALDAV}/${name}`);
const caldavInside = Object.fromEntries(
  caldavClient.filter((file) => !file.endsWith("/index.ts")).map((file) => [`@/${file.replace(SOURCE, "")}`, caldavClient]),
);

// A web process loads every route's static imports when it starts (Next.js preloads them all), so
// what only rarer work needs (a CalDAV calendar, sending mail, Upstash, doctor's checks) is loaded
// at its first use instead: 22 MB less live heap in each web process (docs/operations.md "Running in
// production"). Each entry: a package or module, and the only files that may import it statically
// (type-only imports are erased and do not count; tests are not scanned).
const LOADED_ON_FIRST_USE: Record<string, string[]> = {
  tsdav: caldavClient,
  "ical.js": [`${CALDAV}/ics.ts`],
  undici: [`${CALDAV}/fetch.ts`, "lib/net/guarded-dispatcher.ts"],
  nodemailer: [],
  "@upstash/redis": ["lib/rate-limit/upstash.ts"],
  "@upstash/ratelimit": ["lib/rate-limit/upstash.ts"],
  "@/lib/calendars/caldav": [],
  "@/lib/calendars/caldav/index": [],
  ...caldavInside,
  "@/lib/net/guarded-dispatcher": [`${CALDAV}/fetch.ts`],
  "@/lib/rate-limit/upstash": [],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return SOURCE.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** The modules a file imports statically for their values, as "@/…" paths or package names. */
function staticValueImports(file: string, text: string): string[] {
  const found: string[] = [];
  for (const [, clause, specifier] of text.matchAll(/^\s*(?:import|export)\s+([^;]*?)\s*from\s+"([^"]+)"/gm)) {
    if (/^type\s/.test(clause!)) continue;
    const names = /^\{([^}]*)\}$/.exec(clause!.trim());
    if (names && names[1]!.split(",").every((name) => name.trim() === "" || /^type\s/.test(name.trim()))) continue;
    found.push(specifier!.startsWith(".") ? `@/${path.posix.join(path.posix.dirname(file), specifier!)}` : specifier!);
  }
  for (const [, specifier] of text.matchAll(/^\s*import\s+"([^"]+)"/gm)) found.push(specifier!);
  return found;
}

describe("modules loaded on first use", () => {
  const files = [...["app", "lib", "components"].flatMap(sourceFiles), "instrumentation.ts", "proxy.ts"];

  it("reads the imports the way TypeScript does", () => {
    const text = [
      'import nodemailer, { type Transporter } from "nodemailer";',
      'import type { SendMailOptions } from "nodemailer";',
      'import { type DAVAccount } from "tsdav";',
      'import { busyOfIcs } from "./ics";',
      'export { ServerAddressRefused } from "./address";',
      'const later = () => import("./client");',
    ].join("\n");
    expect(staticValueImports("lib/calendars/caldav/busy.ts", text)).toEqual(["nodemailer", "@/lib/calendars/caldav/ics", "@/lib/calendars/caldav/address"]);
  });

  it("are imported statically only where listed; everywhere else through import()", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(Object.keys(caldavInside)).toContain("@/lib/calendars/caldav/client");
    const offenders = files.flatMap((file) =>
      staticValueImports(file, readFileSync(path.join(ROOT, file), "utf8"))
        .filter((module) => module in LOADED_ON_FIRST_USE && !LOADED_ON_FIRST_USE[module]!.includes(file))
        .map((module) => `${file} imports ${module}`),
    );
    expect(offenders).toEqual([]);
  });
});
