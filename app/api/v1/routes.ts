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
import * as bookings from "./me/bookings/route";
import * as hostCancel from "./me/bookings/[bookingId]/cancel/route";
import * as reschedule from "./me/bookings/[bookingId]/reschedule/route";
import * as publicEvent from "./public/[username]/[eventSlug]/route";
import * as publicSlots from "./public/[username]/[eventSlug]/slots/route";
import * as publicBookings from "./public/[username]/[eventSlug]/bookings/route";
import * as guestCancel from "./public/cancel/route";
import type { EndpointHandlers } from "@/lib/http/route";

export type RouteModule = Pick<EndpointHandlers, "GET" | "POST" | "PUT" | "PATCH" | "DELETE">;

export const routeModules: RouteModule[] = [
  health,
  register,
  login,
  me,
  availability,
  eventTypes,
  eventType,
  bookings,
  hostCancel,
  reschedule,
  guestCancel,
  publicEvent,
  publicSlots,
  publicBookings,
];
