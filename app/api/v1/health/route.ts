// GET /api/v1/health – 200 once the database answers, 503 otherwise
import { endpoint, json, route } from "@/lib/http/route";
import { checkHealth, Health } from "@/lib/store/health";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/health", {
  GET: route(
    {
      auth: "none",
      summary: "Readiness: 200 once the database answers; 503 when it does not, or while shutting down",
      tags: ["Service"],
      responses: { 200: { description: "Healthy", schema: Health } },
      errors: [503],
    },
    async () => json(await checkHealth()),
  ),
});
