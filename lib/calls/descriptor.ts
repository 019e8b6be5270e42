import "server-only";
import { callAgents } from "@/db/schema/enums";
import { getConfig } from "@/lib/config";

// The outbound-calling service's paths (decisions §11) and its root descriptor. The route files
// mount themselves at these paths, so the descriptor names what is really served.

export const CALLS_SERVICE_NAME = "Booking outbound calls";

export const CALLS_PATHS = {
  root: "/api/calls",
  health: "/health",
  reminder: "/api/calls/reminder/outbound",
  followup: "/api/calls/followup/outbound",
  webhook: "/api/calls/webhook",
} as const;

/** GET /api/calls: the service's name, where it is, its agents and its endpoints as `METHOD path`. */
export function callsDescriptor() {
  const config = getConfig();
  return {
    success: true,
    service: CALLS_SERVICE_NAME,
    domain: config.appUrl,
    port: config.port,
    agents: [...callAgents],
    endpoints: {
      health: `GET ${CALLS_PATHS.health}`,
      reminder: `POST ${CALLS_PATHS.reminder}`,
      followup: `POST ${CALLS_PATHS.followup}`,
      webhook: `POST ${CALLS_PATHS.webhook}`,
    },
  };
}
