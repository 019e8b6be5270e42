// POST /api/calls/reminder/outbound – the reminder agent calls a guest before their booking
import { CALLS_PATHS } from "@/lib/calls/descriptor";
import { endpoint } from "@/lib/http/route";
import { outboundCallRoute } from "../../outbound-route";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint(CALLS_PATHS.reminder, { POST: outboundCallRoute("reminder") }, { prefix: "" });
