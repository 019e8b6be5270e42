import "server-only";
import type { ExternalCalendar } from "../types";
import { query } from "./http";
import type { MicrosoftSession } from "./session";
import type { GraphCalendar } from "./wire";

/** The mailbox's calendars; `canEdit: false` ones (shared, subscribed) cannot be written to. */
export async function listCalendars({ all }: MicrosoftSession): Promise<ExternalCalendar[]> {
  const calendars = await all<GraphCalendar>(`/me/calendars?${query({ $select: "id,name,canEdit,isDefaultCalendar", $top: "100" })}`, "Listing Microsoft calendars");
  return calendars.flatMap((c): ExternalCalendar[] =>
    c.id ? [{ externalId: c.id, name: c.name || c.id, isPrimary: c.isDefaultCalendar === true, writable: c.canEdit === true }] : [],
  );
}
