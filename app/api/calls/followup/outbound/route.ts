// POST /api/calls/followup/outbound – the follow-up agent calls a guest after a cancellation or a missed booking
import { CALLS_PATHS } from "@/lib/calls/descriptor";
import { endpoint } from "@/lib/http/route";
import { outboundCallRoute } from "../../outbound-route";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint(CALLS_PATHS.followup, { POST: outboundCallRoute("followup") }, { prefix: "" });
