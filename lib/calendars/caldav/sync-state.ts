import "server-only";
import { CalendarError } from "../types";

// Where a calendar's incremental read goes on from (decisions §17), and how a server says it
// cannot go on: stored as JSON in `calendars.sync_state`.

/**
 * The RFC 6578 sync-token, or, on a server without sync-collection, the ETag of every object (a
 * PROPFIND then shows what changed).
 */
export type CalDavSyncState = { mode: "sync"; token: string } | { mode: "etag"; etags: Record<string, string> };

export function readSyncState(state: string | null): CalDavSyncState | undefined {
  if (!state) return undefined;
  try {
    const parsed = JSON.parse(state) as Partial<CalDavSyncState>;
    if (parsed.mode === "sync" && typeof parsed.token === "string") return { mode: "sync", token: parsed.token };
    if (parsed.mode === "etag" && parsed.etags && typeof parsed.etags === "object") return { mode: "etag", etags: parsed.etags };
  } catch {
    // unreadable: a full read starts over
  }
  return undefined;
}

/** What differs between two ETag listings: objects new or changed, and objects gone. */
export function etagDiff(before: Record<string, string>, now: Record<string, string>): { changed: string[]; removed: string[] } {
  return {
    changed: Object.keys(now).filter((href) => before[href] !== now[href]),
    removed: Object.keys(before).filter((href) => !(href in now)),
  };
}

/** A sync-collection token the server no longer accepts (RFC 6578 §3.2: the valid-sync-token precondition). */
export function isSpentToken(error: unknown): boolean {
  return error instanceof CalendarError && error.kind === "rejected" && (error.status === 403 || error.status === 409 || error.status === 400 || /valid-sync-token/.test(error.message));
}

/** A server that has no sync-collection REPORT: it answers with one of these. */
export function lacksSyncCollection(error: unknown): boolean {
  return error instanceof CalendarError && (error.status === 501 || error.status === 405 || (error.kind === "rejected" && [400, 403, 409, 415].includes(error.status ?? 0)));
}
