import "server-only";
import { calendarMultiGet, propfind, syncCollection } from "tsdav";
import { CalendarError, type CalendarChanges, type ChangesRange } from "../types";
import { assertZone, busyOfObject, objectsInSpan } from "./busy";
import type { DavConnection } from "./connection";
import type { Fetch } from "./fetch";
import { isObject, keyOf } from "./paths";
import { etagDiff, isSpentToken, lacksSyncCollection, readSyncState, type CalDavSyncState } from "./sync-state";

// The incremental read of one calendar (decisions §17): sync-collection (RFC 6578) where the
// server has it, else a PROPFIND of ETags; only changed objects are fetched (calendar-multiget).

/** One sync-collection REPORT: what changed since `token` (all members without one) and the new token. */
async function report(fetch: Fetch, calendarId: string, token: string | undefined) {
  const answers = await syncCollection({ url: calendarId, props: { "d:getetag": {} }, syncLevel: 1, syncToken: token ?? "", fetch });
  const raw = answers[0]?.raw as { multistatus?: { syncToken?: unknown } } | undefined;
  const next = raw?.multistatus?.syncToken;
  if (next === undefined || next === null || next === "") throw new CalendarError("rejected", "the server's sync-collection answer named no sync-token");
  const changed: string[] = [];
  const removed: string[] = [];
  for (const r of answers) {
    if (!isObject(calendarId, r.href)) continue;
    (r.status === 404 ? removed : changed).push(keyOf(calendarId, r.href!));
  }
  return { token: String(next), changed, removed };
}

/** Every object's ETag (a Depth 1 PROPFIND), by event key. */
async function etags(fetch: Fetch, calendarId: string): Promise<Record<string, string>> {
  const answers = await propfind({ url: calendarId, depth: "1", props: { "d:getetag": {} }, fetch });
  const out: Record<string, string> = {};
  for (const r of answers) if (r.ok && isObject(calendarId, r.href) && r.props?.getetag != null) out[keyOf(calendarId, r.href!)] = String(r.props.getetag);
  return out;
}

/** The changed objects' data, one calendar-multiget; objects gone meanwhile go to `removed`. */
async function fetchChanged(fetch: Fetch, calendarId: string, hrefs: string[], range: ChangesRange, changes: CalendarChanges): Promise<void> {
  if (hrefs.length === 0) return;
  const answers = await calendarMultiGet({
    url: calendarId,
    props: { "d:getetag": {}, "c:calendar-data": {} },
    objectUrls: hrefs.map((href) => new URL(keyOf(calendarId, href)).pathname),
    depth: "1",
    fetch,
  });
  const seen = new Set<string>();
  for (const r of answers) {
    if (!isObject(calendarId, r.href)) continue;
    const key = keyOf(calendarId, r.href!);
    seen.add(key);
    if (r.status === 404) changes.removed.push(key);
    else changes.upserts.set(key, busyOfObject(calendarId, r, range));
  }
  for (const href of hrefs) if (!seen.has(keyOf(calendarId, href))) changes.removed.push(keyOf(calendarId, href));
}

/** The span read whole, with the state the next incremental read goes on from. */
async function fullRead(fetch: Fetch, calendarId: string, range: ChangesRange): Promise<CalendarChanges> {
  // The token is taken before the data: a change between the two is read again next time.
  let state: CalDavSyncState;
  try {
    state = { mode: "sync", token: (await report(fetch, calendarId, undefined)).token };
  } catch (error) {
    if (!lacksSyncCollection(error)) throw error;
    state = { mode: "etag", etags: await etags(fetch, calendarId) };
  }
  const changes: CalendarChanges = { full: true, upserts: new Map(), removed: [], state: JSON.stringify(state) };
  for (const r of await objectsInSpan(fetch, calendarId, range)) {
    if (r.ok && isObject(calendarId, r.href)) changes.upserts.set(keyOf(calendarId, r.href!), busyOfObject(calendarId, r, range));
  }
  return changes;
}

/** What changed since a sync-token; a token the server no longer accepts starts over with a full read. */
async function sinceToken(fetch: Fetch, calendarId: string, token: string, range: ChangesRange): Promise<CalendarChanges> {
  let delta: Awaited<ReturnType<typeof report>>;
  try {
    delta = await report(fetch, calendarId, token);
  } catch (error) {
    // The token is spent (the server forgot it, or the collection was replaced): start over.
    if (isSpentToken(error)) return fullRead(fetch, calendarId, range);
    throw error;
  }
  const changes: CalendarChanges = { full: false, upserts: new Map(), removed: [...delta.removed], state: JSON.stringify({ mode: "sync", token: delta.token }) };
  await fetchChanged(fetch, calendarId, delta.changed, range, changes);
  return changes;
}

/** What changed since an ETag listing. */
async function sinceEtags(fetch: Fetch, calendarId: string, before: Record<string, string>, range: ChangesRange): Promise<CalendarChanges> {
  const now = await etags(fetch, calendarId);
  const diff = etagDiff(before, now);
  const changes: CalendarChanges = { full: false, upserts: new Map(), removed: diff.removed, state: JSON.stringify({ mode: "etag", etags: now }) };
  await fetchChanged(fetch, calendarId, diff.changed, range, changes);
  return changes;
}

export function caldavChanges({ call }: DavConnection, calendarId: string, { state, ...range }: ChangesRange & { state: string | null }): Promise<CalendarChanges> {
  return call("Reading CalDAV changes", async (fetch) => {
    assertZone(range.timeZone);
    const known = readSyncState(state);
    if (known?.mode === "sync") return sinceToken(fetch, calendarId, known.token, range);
    if (known?.mode === "etag") return sinceEtags(fetch, calendarId, known.etags, range);
    return fullRead(fetch, calendarId, range);
  });
}
