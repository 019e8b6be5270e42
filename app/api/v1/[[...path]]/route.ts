// * /api/v1/<unknown> – JSON 404 for every path no other route claims
import { notFoundResponse } from "@/lib/http/route";

export const GET = notFoundResponse;
export const POST = notFoundResponse;
export const PUT = notFoundResponse;
export const PATCH = notFoundResponse;
export const DELETE = notFoundResponse;
