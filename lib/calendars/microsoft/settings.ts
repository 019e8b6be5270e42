import "server-only";
import { getConfig } from "@/lib/config";
import { CalendarError } from "../types";

// Every address comes from getConfig().microsoftEndpoints at call time, so tests and sovereign
// clouds can point the client elsewhere.

export const SCOPE = "offline_access User.Read Calendars.ReadWrite";

export function settings() {
  const config = getConfig();
  if (!config.microsoft) {
    throw new CalendarError("unavailable", "Microsoft 365 calendars are not configured on this server (MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET)");
  }
  return { ...config.microsoft, ...config.microsoftEndpoints, timeoutMs: config.calendarTimeoutMs };
}
