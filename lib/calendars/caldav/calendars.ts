import "server-only";
import { propfind } from "tsdav";
import { CalendarError, type ExternalCalendar } from "../types";
import type { DavConnection } from "./connection";
import { withSlash } from "./paths";

// The login's calendars: the event collections in its calendar home.

type Privileges = { privilege?: Record<string, unknown> | Record<string, unknown>[] } | undefined;

const asArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** A calendar is writable unless its privilege set is given and grants no write. */
function canWrite(privileges: Privileges): boolean {
  if (!privileges || typeof privileges !== "object") return true;
  const granted = asArray(privileges.privilege).flatMap((p) => Object.keys(p ?? {}));
  return granted.length === 0 || granted.some((p) => ["all", "write", "writeContent", "bind"].includes(p));
}

function calendarName(displayName: unknown, url: string): string {
  const raw = typeof displayName === "object" && displayName !== null ? (displayName as { _cdata?: unknown })._cdata : displayName;
  // tsdav turns numeric-looking text into numbers ("2024" → 2024).
  const name = ["string", "number", "boolean"].includes(typeof raw) ? String(raw).trim() : "";
  if (name) return name;
  const segment = new URL(url).pathname.split("/").filter(Boolean).pop() ?? url;
  return decodeURIComponent(segment);
}

export function listCalendars({ call, discover }: DavConnection): Promise<ExternalCalendar[]> {
  return call("Listing CalDAV calendars", async (fetch) => {
    const { homeUrl } = await discover(fetch);
    if (!homeUrl) throw new CalendarError("rejected", "the server named no calendar home");
    const props = { "d:displayname": {}, "d:resourcetype": {}, "d:current-user-privilege-set": {}, "c:supported-calendar-component-set": {} };
    const responses = await propfind({ url: homeUrl, depth: "1", props, fetch });
    const calendars: ExternalCalendar[] = [];
    for (const r of responses) {
      if (!r.ok || !r.href || !Object.keys(r.props?.resourcetype ?? {}).includes("calendar")) continue;
      // No component set means every component (RFC 4791 §5.2.3); iCloud's Reminders lists say VTODO only.
      const components = asArray<{ _attributes?: { name?: string } }>(r.props?.supportedCalendarComponentSet?.comp).map((c) => c?._attributes?.name);
      if (components.length > 0 && !components.includes("VEVENT")) continue;
      const url = new URL(r.href, withSlash(homeUrl)).href;
      calendars.push({
        externalId: url,
        name: calendarName(r.props?.displayname, url),
        // iCloud has no primary flag: the first event calendar (usually "Home"/"Calendar") stands in.
        isPrimary: calendars.length === 0,
        writable: canWrite(r.props?.currentUserPrivilegeSet as Privileges),
      });
    }
    return calendars;
  });
}
