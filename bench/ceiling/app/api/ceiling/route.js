// GET /api/ceiling – the cheapest possible Next.js route handler: a pre-serialised JSON body of
// the same size as the real slots response. bench/run.ts writes that body to a file and passes
// its path in CEILING_BODY_FILE; it is read once, on the first request, then served as is.
import { readFileSync } from "node:fs";

export const dynamic = "force-dynamic";

let body;

export function GET() {
  body ??= process.env.CEILING_BODY_FILE ? readFileSync(process.env.CEILING_BODY_FILE, "utf8") : "{}";
  return new Response(body, { headers: { "content-type": "application/json" } });
}
