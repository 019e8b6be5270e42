// `npm run api:types`: writes the TypeScript types of the API (openapi-typescript) from the
// OpenAPI document, built in this process: no server and no database.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { parseConfig, setConfig } from "@/lib/config";

async function main() {
  // The route modules' logger reads the configuration as it loads. A throwaway one, with its
  // secrets given, keeps this command from reading .env or generating secrets into .data/; the
  // document depends on no setting but the origin, and the types leave the origin out.
  setConfig(
    parseConfig({
      NODE_ENV: "test",
      APP_URL: "http://localhost:3000",
      JWT_SECRET: randomBytes(32).toString("hex"),
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      LOG_LEVEL: "warn",
    }),
  );
  // Imported after the configuration is set (a static import would load the routes first).
  const { API_TYPES_FILE, apiTypes, apiTypesPath, openApiDocument } = await import("./openapi-types");
  writeFileSync(apiTypesPath, await apiTypes(openApiDocument("http://localhost:3000")));
  process.stdout.write(`Wrote ${API_TYPES_FILE}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
