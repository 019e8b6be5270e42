import "server-only";
import { z } from "zod";
import { getDatabase } from "@/lib/store/database";
import { AppError } from "@/lib/errors";
import { isDraining } from "@/lib/lifecycle";

export const Health = z.object({ status: z.literal("ok") });

/**
 * Ready once the database answers a round trip; otherwise 503 service_unavailable, and so while
 * shutting down, so that a load balancer sends the next requests elsewhere.
 */
export async function checkHealth(): Promise<z.output<typeof Health>> {
  if (isDraining()) throw new AppError("service_unavailable", "Shutting down");
  try {
    await (await getDatabase()).ping();
  } catch {
    throw new AppError("service_unavailable", "The database does not answer");
  }
  return { status: "ok" };
}
