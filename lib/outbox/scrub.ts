import "server-only";
import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { outboxJobs } from "@/db/schema";

// Erasing a guest (decisions §16) reaches into what was recorded about them besides the booking
// row: job payloads (a webhook body, an email's event), delivery logs, stored answers. What a
// guest gave is replaced wherever it appears as a value; anything else stays as it was.

/** What is erased: the guest's addresses (any case), names and answers, and the bookings they were on. */
export type Erasure = { emails: string[]; names: string[]; answers: string[]; bookingIds: string[] };

export const ERASED_NAME = "Erased guest";

/** Keys whose whole value is the guest's answers. */
const ANSWER_KEYS = new Set(["customAnswers", "answers"]);

/**
 * `value` with every string that is a guest's address, name or answer replaced (the address by
 * "", the name by "Erased guest", an answer by ""), answers objects emptied, and JSON held in a
 * string (a webhook body) scrubbed inside. Returns the same value when nothing matched.
 */
export function scrubValue(value: unknown, erasure: Erasure): unknown {
  const emails = new Set(erasure.emails.map((e) => e.toLowerCase()));
  const names = new Set(erasure.names);
  const answers = new Set(erasure.answers.filter((a) => a !== ""));
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      if (emails.has(v.toLowerCase())) return "";
      if (names.has(v)) return ERASED_NAME;
      if (answers.has(v)) return "";
      if (v.startsWith("{") && [...emails].some((e) => v.toLowerCase().includes(e))) {
        try {
          return JSON.stringify(walk(JSON.parse(v)));
        } catch {
          return v;
        }
      }
      return v;
    }
    if (Array.isArray(v)) {
      const out = v.map(walk);
      return out.some((x, i) => x !== v[i]) ? out : v;
    }
    if (v !== null && typeof v === "object") {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const y = ANSWER_KEYS.has(k) && x !== null && typeof x === "object" && Object.keys(x).length > 0 ? {} : walk(x);
        if (y !== x) changed = true;
        out[k] = y;
      }
      return changed ? out : v;
    }
    return v;
  };
  return walk(value);
}

/** SQL true when `column` (json) mentions one of the erased addresses or bookings. */
export function mentions(column: SQL, erasure: Erasure): SQL {
  const needles = [...erasure.emails.map((e) => e.toLowerCase()), ...erasure.bookingIds].filter((n) => n !== "");
  if (needles.length === 0) return sql`false`;
  return or(...needles.map((n) => sql`strpos(lower(${column}::text), ${n.toLowerCase()}) > 0`))!;
}

/**
 * The outbox after an erasure: jobs still to send something to the guest (their booking emails,
 * reminders, calls) are deleted; every other job that mentions the guest or their bookings, to
 * be sent or finished, keeps its place with the guest's data scrubbed out of its payload.
 */
export async function scrubOutbox(tx: Tx | Db, erasure: Erasure, guestBoundKinds: readonly string[]): Promise<{ dropped: number; scrubbed: number }> {
  const rows = await tx
    .select({ id: outboxJobs.id, kind: outboxJobs.kind, status: outboxJobs.status, payload: outboxJobs.payload })
    .from(outboxJobs)
    .where(mentions(sql`${outboxJobs.payload}`, erasure))
    .for("update");
  const toGuest = (p: unknown) => (p as { reader?: unknown }).reader === "guest";
  const doomed = rows.filter((r) => r.status === "pending" && guestBoundKinds.includes(r.kind) && toGuest(r.payload)).map((r) => r.id);
  if (doomed.length > 0) await tx.delete(outboxJobs).where(and(inArray(outboxJobs.id, doomed), eq(outboxJobs.status, "pending")));
  let scrubbed = 0;
  for (const row of rows) {
    if (doomed.includes(row.id)) continue;
    const payload = scrubValue(row.payload, erasure);
    if (payload === row.payload) continue;
    await tx.update(outboxJobs).set({ payload }).where(eq(outboxJobs.id, row.id));
    scrubbed += 1;
  }
  return { dropped: doomed.length, scrubbed };
}
