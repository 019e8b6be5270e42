// GET /health – the outbound-calling service's health check (at the site root): as /api/v1/health
import { CALLS_PATHS } from "@/lib/calls/descriptor";
import { endpoint, json, route } from "@/lib/http/route";
import { checkHealth, Health } from "@/lib/store/health";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint(
  CALLS_PATHS.health,
  {
    GET: route(
      {
        auth: "none",
        summary: "Liveness and database check at the site root (the outbound-calling service's health endpoint)",
        tags: ["Outbound calls"],
        responses: { 200: { description: "Healthy", schema: Health } },
        errors: [503],
      },
      async () => json(await checkHealth()),
    ),
  },
  { prefix: "" },
);
