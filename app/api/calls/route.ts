// GET /api/calls – the outbound-calling service's root descriptor
import { CALLS_PATHS, callsDescriptor } from "@/lib/calls/descriptor";
import { endpoint, json, route } from "@/lib/http/route";
import { CallsDescriptor } from "@/lib/schemas/calls";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint(
  CALLS_PATHS.root,
  {
    GET: route(
      {
        auth: "none",
        summary: "The outbound-calling service: its name, address, agents and endpoints",
        tags: ["Outbound calls"],
        responses: { 200: { description: "The root descriptor", schema: CallsDescriptor } },
      },
      async () => json(callsDescriptor()),
    ),
  },
  { prefix: "" },
);
