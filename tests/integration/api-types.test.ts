import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { API_TYPES_FILE, apiTypes, apiTypesPath, openApiDocument } from "@/scripts/openapi-types";
import { api } from "../support/api";
import { withTestDatabase } from "../support/database";

// The CI check of the typed client (vitest run is what CI runs): the checked-in types are what
// the generator makes of the document today, and that document is the one the service serves.

withTestDatabase();

describe("the generated API types", () => {
  it("come from the document GET /openapi.json serves", async () => {
    const served = await api.get("/openapi.json");
    expect(served.status).toBe(200);
    expect(openApiDocument(getConfig().appUrl), "scripts/openapi-types.ts must build the route's document: its list of routes has fallen behind").toEqual(served.body);
  });

  it(`are up to date in ${API_TYPES_FILE}`, async () => {
    const generated = await apiTypes(openApiDocument(getConfig().appUrl));
    const checkedIn = readFileSync(apiTypesPath, "utf8");
    // One line, not an 8,000-line diff: what to run is what a reader needs.
    expect(checkedIn === generated, `${API_TYPES_FILE} differs from the OpenAPI document: run \`npm run api:types\` and commit the file`).toBe(true);
  });
});
