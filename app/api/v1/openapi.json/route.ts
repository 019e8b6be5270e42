// GET /api/v1/openapi.json – the OpenAPI 3.1 document of every route: /api/v1 and the outbound-calling service
import { getConfig } from "@/lib/config";
import { buildOpenApiDocument } from "@/lib/http/openapi";
import { endpoint, json, route } from "@/lib/http/route";
import { outgoingWebhooks } from "@/lib/schemas/webhook";
import { routeModules, siteRouteModules } from "../routes";

let cached: ReturnType<typeof buildOpenApiDocument> | undefined;

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/openapi.json", {
  GET: route(
    { auth: "none", summary: "This OpenAPI 3.1 document", tags: ["Service"], responses: { 200: { description: "OpenAPI document" } } },
    async () => {
      cached ??= buildOpenApiDocument(
        [...routeModules, { GET, POST, PUT, PATCH, DELETE }, ...siteRouteModules].flatMap((m) => [m.GET, m.POST, m.PUT, m.PATCH, m.DELETE]),
        getConfig().appUrl,
        outgoingWebhooks,
      );
      return json(cached);
    },
  ),
});
