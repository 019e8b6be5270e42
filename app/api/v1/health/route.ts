// GET /api/v1/health – 200 once the database answers, 503 otherwise
import { z } from "zod";
import { getDatabase } from "@/db";
import { AppError } from "@/lib/http/errors";
import { endpoint, json, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/health", {
  GET: route(
    {
      auth: "none",
      summary: "Liveness and database check",
      tags: ["Service"],
      responses: { 200: { description: "Healthy", schema: z.object({ status: z.literal("ok") }) } },
      errors: [503],
    },
    async () => {
      try {
        await (await getDatabase()).ping();
      } catch {
        throw new AppError("service_unavailable", "The database does not answer");
      }
      return json({ status: "ok" });
    },
  ),
});
