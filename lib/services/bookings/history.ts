import "server-only";
import { asc, eq } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { bookingHistory, type UserRow } from "@/db/schema";
import { isoUtc } from "@/lib/time/instants";
import { getBookingForHostOrThrow } from "./store";

// A booking's story (decisions §16): one row per change, written by the verb that makes the
// change, with the same transaction, so the history holds exactly what happened. A new booking
// writes its row in the statement that inserts it (commit.ts).

export type HistoryAction = "created" | "confirmed" | "rescheduled" | "cancelled" | "no_show" | "meeting_link" | "paid" | "refund_requested" | "refunded";

/** Who acted: the guest (their links, the booking page), a host (by id), or the service itself. */
export type Actor = { actor: "guest" } | { actor: "host"; userId: string } | { actor: "system" };

export const GUEST = { actor: "guest" } as const satisfies Actor;
export const SYSTEM = { actor: "system" } as const satisfies Actor;
export const hostActor = (host: Pick<UserRow, "id">) => ({ actor: "host", userId: host.id }) as const satisfies Actor;

/** Records one entry inside `tx`, the transaction of the change it tells of. */
export async function recordHistory(tx: Tx, bookingId: string, action: HistoryAction, by: Actor, now: number, details: Record<string, unknown> = {}): Promise<void> {
  await tx.insert(bookingHistory).values({
    bookingId,
    at: new Date(now),
    action,
    actor: by.actor,
    actorUserId: by.actor === "host" ? by.userId : null,
    details,
  });
}

export type HistoryEntry = { at: string; action: string; actor: string; userId?: string } & Record<string, unknown>;

/**
 * GET /me/bookings/{id}/history: the booking's entries, oldest first (in the order they were
 * written), for any host of the booking; another's booking is 404.
 */
export async function listBookingHistory(db: Db, host: UserRow, bookingId: string): Promise<{ data: HistoryEntry[] }> {
  await getBookingForHostOrThrow(db, host, bookingId);
  const rows = await db.select().from(bookingHistory).where(eq(bookingHistory.bookingId, bookingId)).orderBy(asc(bookingHistory.id));
  return {
    data: rows.map((r) => ({
      // The details first: the entry's own fields win over any stray key of the same name.
      ...r.details,
      at: isoUtc(r.at),
      action: r.action,
      actor: r.actor,
      ...(r.actorUserId ? { userId: r.actorUserId } : {}),
    })),
  };
}
