import "server-only";
import type { CalendarRow } from "@/db/schema";
import type { CalendarChanges, ExternalCalendar } from "@/lib/calendars";

// What a sync will write, decided without the database: per calendar read, which busy rows go and
// which come (planCalendar); per connection, which calendars were added, removed or renamed at the
// provider (planSync). Pure: the sync (sync.ts) reads what these need and writes what they decide.

export type Interval = { key: string | null; start: number; end: number };

const tuple = (r: Interval) => `${r.key ?? ""}\u0000${r.start}\u0000${r.end}`;

/** Same intervals, in any order. */
function sameIntervals(a: Interval[], b: Interval[]): boolean {
  if (a.length !== b.length) return false;
  const x = a.map(tuple).sort();
  const y = b.map(tuple).sort();
  return x.every((t, i) => t === y[i]);
}

/**
 * What one calendar's read means for its stored rows: which to delete ("all", or those of the
 * given event keys), which to insert, and whether that changes what the slots read.
 */
export type CalendarPlan = {
  remove: "all" | string[];
  /** Drop the rows a check at booking stored (no event key): the read that follows it names the event. */
  removeUnkeyed: boolean;
  insert: Interval[];
  busyChanged: boolean;
  state: string;
  syncedTo: Date;
};

/**
 * Turns a provider's answer into a plan against the stored rows. `own` holds the ids of the events
 * this service wrote for bookings (the bookings already block their time, and a rescheduled
 * booking must not be blocked by its own old event); their rows go whatever the answer says.
 */
export function planCalendar(changes: CalendarChanges, stored: Interval[], own: Set<string>, syncedTo: Date): CalendarPlan {
  const isOwn = (key: string, eventId?: string) => own.has(key) || (eventId !== undefined && own.has(eventId));
  const fresh = (key: string) =>
    (changes.upserts.get(key) ?? []).filter((r) => r.start < r.end && !isOwn(key, r.eventId)).map((r) => ({ key, start: r.start, end: r.end }));
  if (changes.full) {
    const insert = [...changes.upserts.keys()].flatMap(fresh);
    const same = sameIntervals(insert, stored);
    return { remove: same ? [] : "all", removeUnkeyed: false, insert: same ? [] : insert, busyChanged: !same, state: changes.state, syncedTo };
  }
  const touched = new Set([...changes.upserts.keys(), ...changes.removed]);
  // Rows of our own events stored before the booking's event was recorded go too.
  for (const r of stored) if (r.key !== null && own.has(r.key)) touched.add(r.key);
  const remove: string[] = [];
  const insert: Interval[] = [];
  for (const key of touched) {
    const next = changes.upserts.has(key) ? fresh(key) : [];
    if (sameIntervals(next, stored.filter((r) => r.key === key))) continue;
    remove.push(key);
    insert.push(...next);
  }
  // A check at booking stores what it found without an event key and makes this read due at once;
  // the provider's changes since the last read include that event, now with its key.
  const removeUnkeyed = stored.some((r) => r.key === null);
  return { remove, removeUnkeyed, insert, busyChanged: remove.length > 0 || removeUnkeyed, state: changes.state, syncedTo };
}

/** What the provider said in one sync: its calendars now, and what changed in each one read. */
export type ProviderRead = { listed: ExternalCalendar[]; read: Map<string, { changes: CalendarChanges; syncedTo: Date }> };

/** What the stored side holds for the plan: the calendars, their busy rows, the events this service wrote. */
export type StoredSide = { calendars: CalendarRow[]; busyOf: (calendarId: string) => Interval[]; own: Set<string> };

/** What one sync writes: calendars added, removed and renamed at the provider, and each read calendar's plan. */
export type SyncPlan = {
  listedIds: Set<string>;
  added: ExternalCalendar[];
  removed: CalendarRow[];
  /** Listed calendars whose name or write access changed. */
  renamed: ExternalCalendar[];
  /** By external id. */
  plans: Map<string, CalendarPlan>;
  /** Whether what the slots read changes (busy rows, or a calendar gone with its rows). */
  busyChanged: boolean;
};

export function planSync({ listed, read }: ProviderRead, stored: StoredSide): SyncPlan {
  const byExternal = new Map(stored.calendars.map((c) => [c.externalId, c]));
  const listedIds = new Set(listed.map((c) => c.externalId));
  const added = listed.filter((c) => !byExternal.has(c.externalId));
  const removed = stored.calendars.filter((c) => !listedIds.has(c.externalId));
  const renamed = listed.filter((c) => {
    const old = byExternal.get(c.externalId);
    return old !== undefined && (old.name !== c.name || old.readOnly !== !c.writable);
  });
  const plans = new Map<string, CalendarPlan>();
  for (const [externalId, { changes, syncedTo }] of read) {
    const old = byExternal.get(externalId);
    plans.set(externalId, planCalendar(changes, old ? stored.busyOf(old.id) : [], stored.own, syncedTo));
  }
  const busyChanged = removed.length > 0 || [...plans.values()].some((p) => p.busyChanged);
  return { listedIds, added, removed, renamed, plans, busyChanged };
}
