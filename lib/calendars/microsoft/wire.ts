import "server-only";

// What Microsoft sends and takes: the shapes this client reads, and Graph's date-times.

/** An HTTP answer, its body read as JSON (undefined when it was none). */
export type Answer = { status: number; headers: Headers; body: unknown };

type GraphDateTime = { dateTime?: string; timeZone?: string };

export type GraphEvent = {
  id?: string;
  /** Set on a delta item whose event was deleted (or left the window). */
  "@removed"?: { reason?: string };
  subject?: string;
  start?: GraphDateTime;
  end?: GraphDateTime;
  showAs?: string;
  isCancelled?: boolean;
  isAllDay?: boolean;
  location?: { displayName?: string };
};

export type GraphCalendar = { id?: string; name?: string; canEdit?: boolean; isDefaultCalendar?: boolean };

/** Graph's dateTime: no offset, read in the zone named beside it (UTC here: we ask for it). */
export const toGraphDateTime = (ms: number) => new Date(ms).toISOString().slice(0, -1);

export function parseUtc(dateTime: string | undefined): number {
  if (!dateTime) return NaN;
  return Date.parse(/(?:Z|[+-]\d\d:\d\d)$/i.test(dateTime) ? dateTime : `${dateTime}Z`);
}
