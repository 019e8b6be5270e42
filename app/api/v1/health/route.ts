// GET /api/v1/health – 200 once the database answers, 503 otherwise; ?full=1: the operator's doctor report
import { endpoint, json, route } from "@/lib/http/route";
import { requireOperator } from "@/lib/http/operator";
import { runDoctorInProcess } from "@/lib/ops/doctor";
import { DoctorReport, HealthQuery } from "@/lib/schemas/ops";
import { checkHealth, Health } from "@/lib/store/health";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/health", {
  GET: route(
    {
      auth: "none",
      summary:
        "Readiness: 200 once the database answers; 503 when it does not, or while shutting down. With ?full=1 and the operator's bearer token (OPS_TOKEN): every check of `npm run doctor`, live",
      tags: ["Service"],
      query: HealthQuery,
      responses: { 200: { description: "Healthy; with ?full=1, the doctor's report (its status says whether a check failed)", schema: Health.or(DoctorReport) } },
      errors: [
        { status: 401, description: "?full=1 without the operator's token" },
        { status: 404, description: "?full=1 while OPS_TOKEN is unset" },
        503,
      ],
    },
    async ({ req, query }) => {
      if (!query.full) return json(await checkHealth());
      requireOperator(req);
      return json(await runDoctorInProcess());
    },
  ),
});
