// Every route module of the API (not a route itself: Next.js serves only route.ts files).
// The OpenAPI document is built from this list, and a test walks app/api/v1 to make sure
// no route.ts is missing from it.
import * as register from "./auth/register/route";
import * as login from "./auth/login/route";
import * as health from "./health/route";
import * as me from "./me/route";
import * as availability from "./me/availability/route";
import * as eventTypes from "./me/event-types/route";
import * as eventType from "./me/event-types/[eventTypeId]/route";
import type { EndpointHandlers } from "@/lib/http/route";

export type RouteModule = Pick<EndpointHandlers, "GET" | "POST" | "PUT" | "PATCH" | "DELETE">;

export const routeModules: RouteModule[] = [health, register, login, me, availability, eventTypes, eventType];
