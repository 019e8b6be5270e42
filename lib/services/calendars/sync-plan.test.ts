import { describe, expect, it } from "vitest";
import type { CalendarRow } from "@/db/schema";
import type { BusyRange, CalendarChanges } from "@/lib/calendars";
import { planCalendar, planSync, type Interval } from "./sync-plan";

// The sync's pure half: what one read means for the stored rows, and which calendars come and go.

const at = new Date(Date.UTC(2031, 0, 1));
const changes = (full: boolean, upserts: [string, BusyRange[]][], removed: string[] = []): CalendarChanges => ({ full, upserts: new Map(upserts), removed, state: "s2" });

describe("planCalendar", () => {
  const stored: Interval[] = [{ key: "a", start: 0, end: 10 }];

  it("a full read equal to what is stored changes nothing but the state", () => {
    expect(planCalendar(changes(true, [["a", [{ start: 0, end: 10 }]]]), stored, new Set(), at)).toEqual({ remove: [], removeUnkeyed: false, insert: [], busyChanged: false, state: "s2", syncedTo: at });
  });

  it("a full read that differs replaces every row; the service's own events and empty ranges are left out", () => {
    const plan = planCalendar(changes(true, [["a", [{ start: 0, end: 20 }]], ["own", [{ start: 5, end: 6 }]], ["b", [{ start: 7, end: 7 }]]]), stored, new Set(["own"]), at);
    expect(plan).toMatchObject({ remove: "all", insert: [{ key: "a", start: 0, end: 20 }], busyChanged: true });
  });

  it("an incremental read touches only the events it names, drops the own events' rows and a check's unkeyed rows", () => {
    const rows: Interval[] = [...stored, { key: "b", start: 1, end: 2 }, { key: "uid-1", start: 3, end: 4 }, { key: null, start: 5, end: 6 }];
    const plan = planCalendar(changes(false, [["a", [{ start: 0, end: 10 }]], ["c", [{ start: 8, end: 9, eventId: "uid-2" }]]], ["b"]), rows, new Set(["uid-1", "uid-2"]), at);
    expect(plan).toEqual({ remove: expect.arrayContaining(["b", "uid-1"]), removeUnkeyed: true, insert: [], busyChanged: true, state: "s2", syncedTo: at });
    expect(plan.remove).toHaveLength(2);
  });
});

describe("planSync", () => {
  const row = (externalId: string, extra: Partial<CalendarRow> = {}) => ({ id: `cld_${externalId}`, externalId, name: externalId, readOnly: false, ...extra }) as CalendarRow;
  const listed = (externalId: string, extra: { name?: string; writable?: boolean } = {}) => ({ externalId, name: extra.name ?? externalId, isPrimary: false, writable: extra.writable ?? true });

  it("finds calendars added, removed and renamed (or made read-only), and plans each calendar read", () => {
    const plan = planSync(
      { listed: [listed("keep"), listed("new"), listed("renamed", { name: "Work" }), listed("locked", { writable: false })], read: new Map([["keep", { changes: changes(true, []), syncedTo: at }]]) },
      { calendars: [row("keep"), row("gone"), row("renamed"), row("locked")], busyOf: (id) => (id === "cld_keep" ? [{ key: "a", start: 0, end: 1 }] : []), own: new Set() },
    );
    expect(plan.added.map((c) => c.externalId)).toEqual(["new"]);
    expect(plan.removed.map((c) => c.externalId)).toEqual(["gone"]);
    expect(plan.renamed.map((c) => c.externalId)).toEqual(["renamed", "locked"]);
    expect(plan.plans.get("keep")).toMatchObject({ remove: "all", busyChanged: true });
    expect(plan.busyChanged).toBe(true);
  });

  it("nothing new is no change", () => {
    const plan = planSync({ listed: [listed("keep")], read: new Map([["keep", { changes: changes(false, []), syncedTo: at }]]) }, { calendars: [row("keep")], busyOf: () => [], own: new Set() });
    expect(plan).toMatchObject({ added: [], removed: [], renamed: [], busyChanged: false });
  });
});
