import "server-only";
import type { ExternalCalendar } from "../types";
import { callOptions } from "./oauth";
import type { GoogleSession } from "./session";

/** The account's calendars (calendarList, every page); only owner and writer access can be written to. */
export async function listCalendars({ api, call }: GoogleSession): Promise<ExternalCalendar[]> {
  const calendars: ExternalCalendar[] = [];
  let pageToken: string | undefined;
  do {
    const { data } = await call("Listing Google calendars", () =>
      api.calendarList.list({ maxResults: 250, ...(pageToken ? { pageToken } : {}) }, callOptions()),
    );
    for (const entry of data.items ?? []) {
      if (!entry.id || entry.deleted) continue;
      calendars.push({
        externalId: entry.id,
        name: entry.summaryOverride ?? entry.summary ?? entry.id,
        isPrimary: entry.primary === true,
        writable: entry.accessRole === "owner" || entry.accessRole === "writer",
      });
    }
    pageToken = data.nextPageToken ?? undefined;
  } while (pageToken);
  return calendars;
}
