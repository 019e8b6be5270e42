import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// The house's layers (ARCHITECTURE.md): what each room may import. Type-only imports may cross
// (a component may name a row's type); values may not. Relative paths are caught too.
const room = (...names) => names.flatMap((n) => [`@/${n}`, `@/${n}/*`, `**/${n}`, `**/${n}/*`]);
const SERVER_ONLY = room("db", "lib/services", "lib/store", "lib/outbox", "lib/jobs", "lib/auth", "lib/calendars", "lib/notifications", "lib/webhooks", "lib/net", "lib/calls", "lib/rate-limit", "lib/config", "lib/log", "lib/links", "lib/secret-box", "lib/dto", "lib/ops");
// SQL (drizzle-orm and db/'s tables and driver) lives in the rooms below and nowhere else: the
// services' stores and verbs, lib/store, lib/outbox, db/, and three named exceptions: the
// worker's queue (lib/jobs/queue.ts), the rate limiter's PostgreSQL store and the doctor's
// opening of the database it checks. db/schema/enums.ts (value lists, no drizzle) is for anyone.
const SQL_ROOMS = ["lib/services/**", "lib/store/**", "lib/outbox/**", "db/**", "lib/jobs/queue.ts", "lib/rate-limit/postgres.ts", "lib/ops/sources.ts"];
const SQL = {
  // drizzle-orm, and db/ (its driver and tables) by alias or relative path, but for db/schema/enums.
  regex: "^drizzle-orm(/.*)?$|(^|/)db(/(client|index|schema(/(?!enums$)[^/]+)?))?$",
  allowTypeImports: true,
  message: "SQL lives in lib/services, lib/store and lib/outbox (ARCHITECTURE.md): call a service verb or a store function.",
};
// A zone replaces what an earlier one said of the same files (flat config does not merge a
// rule's options), so each zone carries the SQL rule itself unless its files may hold SQL.
const TESTS = ["**/*.test.ts", "**/*.test.tsx"];
const restrict = (patterns) => ({ "@typescript-eslint/no-restricted-imports": ["error", { patterns }] });
const zone = (files, rooms, message, { sql = false, ignores = [] } = {}) => {
  const walls = { group: rooms, allowTypeImports: true, message };
  // Tests may set up rows themselves; the walls hold for them too.
  return [
    { files, ignores: [...ignores, ...TESTS], rules: restrict(sql ? [walls] : [walls, SQL]) },
    { files: files.flatMap((f) => (f.endsWith("/**") ? TESTS.map((t) => `${f.slice(0, -3)}/${t}`) : [f.replace(/\.(tsx?)$/, ".test.$1")])), ignores, rules: restrict([walls]) },
  ];
};

// The entities of lib/services, bottom first: each imports only those before it (values; a
// type may cross), so the entity rooms form no cycle (scripts/rooms.mjs checks every room).
const ENTITIES = ["host-time", "calendars", "schedules", "time-off", "teams", "webhooks", "event-types", "bookable", "bookings", "calls", "guests", "api-keys", "accounts"];
const SERVICES_MAY_NOT = room("lib/jobs", "lib/http", "lib/dashboard", "app", "components");
const entityZones = ENTITIES.flatMap((entity, i) =>
  zone(
    [`lib/services/${entity}/**`],
    [...SERVICES_MAY_NOT, ...room(...ENTITIES.slice(i + 1).map((above) => `lib/services/${above}`))],
    `lib/services/${entity} may import only the entities below it (${ENTITIES.slice(0, i).join(", ") || "none"}), never the worker, the HTTP layer or pages; a side effect is a job in lib/outbox.`,
    { sql: true },
  ),
);
const layers = [
  // Everything not in a zone below: no SQL outside its rooms.
  { files: ["**/*.{ts,tsx,mts}"], ignores: [...SQL_ROOMS, "tests/**", "e2e/**", "bench/**", "scripts/**", ...TESTS], rules: restrict([SQL]) },
  ...zone(["lib/slots/**"], room("db", "lib/services", "lib/store", "lib/outbox", "lib/jobs", "lib/http", "lib/config", "app", "components"), "The slot engine is pure: no database, no clock, no configuration."),
  ...zone(["db/**"], room("lib", "app", "components"), "db/ is the bottom floor: tables, migrations, the driver. It imports nothing above it.", { sql: true }),
  ...zone(["lib/outbox/**"], room("lib/services", "lib/jobs", "lib/http", "app", "components"), "The outbox is the door services write jobs through; it knows neither the services nor the worker.", { sql: true }),
  ...zone(["lib/store/**"], room("lib/services", "lib/jobs", "lib/http", "app", "components"), "The store is infrastructure under the services.", { sql: true }),
  ...entityZones,
  ...[false, true].flatMap((sql) =>
    zone(["lib/jobs/**"], room("lib/http", "app", "components"), "Job handlers are adapters over service verbs.", sql ? { sql, ignores: ["lib/jobs/!(queue).ts"] } : { ignores: ["lib/jobs/queue.ts"] }),
  ),
  ...[false, true].flatMap((sql) =>
    zone(
      ["lib/notifications/**", "lib/calendars/**", "lib/webhooks/**", "lib/net/**", "lib/calls/**", "lib/rate-limit/**"].filter((f) => !sql || f === "lib/rate-limit/**"),
      [...room("lib/services", "lib/jobs", "lib/outbox", "lib/http", "app", "components"), "!@react-email/components"],
      "Providers sit below the services: they are given what they need.",
      sql ? { sql, ignores: ["lib/rate-limit/!(postgres).ts"] } : { ignores: ["lib/rate-limit/postgres.ts"] },
    ),
  ),
  ...zone(["app/api/**"], [...room("db", "lib/store/locks", "lib/outbox", "lib/jobs"), "drizzle-orm", "drizzle-orm/*"], "Route handlers are thin: parse, call one service, answer."),
  ...zone(
    ["lib/schemas/**"],
    room("lib/services", "lib/store", "lib/outbox", "lib/jobs", "lib/http", "lib/auth", "lib/calendars", "lib/webhooks", "lib/net", "lib/notifications", "lib/calls", "lib/dashboard", "lib/browser", "lib/forms", "app", "components"),
    "The schemas are the contract: everything that speaks it imports them, and they import none of it.",
  ),
  ...zone(
    ["lib/auth/**"],
    room("lib/services", "lib/store", "lib/outbox", "lib/jobs", "lib/http", "lib/dashboard", "lib/browser", "app", "components"),
    "lib/auth holds the credential primitives (passwords, tokens, the session cookie); who a token speaks for is lib/services/accounts' to say.",
  ),
  ...zone(["lib/forms/**"], [...SERVER_ONLY, ...room("lib/dashboard", "app", "components")], "The forms' models run in the browser: the API's schemas and shared modules only, below the components that draw them."),
  ...zone(["components/**", "lib/browser/**"], SERVER_ONLY, "Browser code: it reaches the server through the API (lib/browser/api-client), never its modules."),
  // The account pages load zod with the API's schemas only when a form is first touched.
  ...zone(
    ["components/auth/**", "lib/forms/auth.ts"],
    [...SERVER_ONLY, "zod", "zod/*", ...room("lib/schemas", "lib/forms/auth-rules")],
    "The account pages load zod and the API's schemas when a form is first touched: take the rules from lib/forms/auth-lazy.ts (a type may cross).",
  ),
  ...zone(["lib/time/**", "lib/i18n/**", "lib/question-answers.ts", "lib/meeting-location.ts", "lib/phone.ts", "lib/slugify.ts", "lib/onboarding.ts"], [...SERVER_ONLY, ...room("lib/browser")], "Shared modules (pure, Intl only) run in the browser and on the server alike."),
];

const config = [
  ...nextVitals,
  ...nextTs,
  ...layers,
  // Tests read JSON bodies loosely on purpose: the assertions are the type check.
  { files: ["tests/**", "e2e/**", "**/*.test.ts"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  { ignores: [".next/**", "bench/ceiling/.next/**", "bench/.ceiling-routes/**", ".data/**", "node_modules/**", "next-env.d.ts", "db/migrations/**", "test-results/**", "playwright-report/**"] },
];

export default config;
