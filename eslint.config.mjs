import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// The house's layers (ARCHITECTURE.md): what each room may import. Type-only imports may cross
// (a component may name a row's type); values may not. Relative paths are caught too.
const room = (...names) => names.flatMap((n) => [`@/${n}`, `@/${n}/*`, `**/${n}`, `**/${n}/*`]);
const SERVER_ONLY = room("db", "lib/services", "lib/store", "lib/outbox", "lib/jobs", "lib/auth", "lib/calendars", "lib/notifications", "lib/webhooks", "lib/calls", "lib/rate-limit", "lib/config", "lib/log", "lib/links", "lib/secret-box", "lib/dto", "lib/ops");
const zone = (files, rooms, message) => ({
  files,
  rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [{ group: rooms, allowTypeImports: true, message }] }] },
});
const layers = [
  zone(["lib/slots/**"], room("db", "lib/services", "lib/store", "lib/outbox", "lib/jobs", "lib/http", "lib/config", "app", "components"), "The slot engine is pure: no database, no clock, no configuration."),
  zone(["db/**"], room("lib", "app", "components"), "db/ is the bottom floor: tables, migrations, the driver. It imports nothing above it."),
  zone(["lib/outbox/**"], room("lib/services", "lib/jobs", "lib/http", "app", "components"), "The outbox is the door services write jobs through; it knows neither the services nor the worker."),
  zone(["lib/store/**"], room("lib/services", "lib/jobs", "lib/http", "app", "components"), "The store is infrastructure under the services."),
  zone(["lib/services/**"], room("lib/jobs", "lib/http", "app", "components"), "Services write side effects through lib/outbox and never call the worker or the HTTP layer."),
  zone(["lib/jobs/**"], room("lib/http", "app", "components"), "Job handlers are adapters over service verbs."),
  zone(["lib/notifications/**", "lib/calendars/**", "lib/webhooks/**", "lib/calls/**", "lib/rate-limit/**"], [...room("lib/services", "lib/jobs", "lib/outbox", "lib/http", "app", "components"), "!@react-email/components"], "Providers sit below the services: they are given what they need."),
  zone(["app/api/**"], [...room("db", "lib/store/locks", "lib/outbox", "lib/jobs"), "drizzle-orm", "drizzle-orm/*"], "Route handlers are thin: parse, call one service, answer."),
  zone(["components/**", "lib/browser/**"], SERVER_ONLY, "Browser code: it reaches the server through the API (lib/browser/api-client), never its modules."),
  zone(["lib/time/**", "lib/i18n/**", "lib/question-answers.ts", "lib/meeting-location.ts", "lib/phone.ts", "lib/slugify.ts"], [...SERVER_ONLY, ...room("lib/browser")], "Shared modules (pure, Intl only) run in the browser and on the server alike."),
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
