import { randomBytes, randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { DateTime } from "luxon";
import type { Tx } from "@/db";
import {
  availabilityOverrides,
  bookingHosts,
  bookings,
  calendarConnections,
  calendars,
  eventTypes,
  schedules,
  teamMembers,
  teams,
  users,
  webhooks,
  type BookingRow,
  type EventTypeRow,
  type TeamRow,
  type UserRow,
} from "@/db/schema";
import { newId } from "@/lib/ids";
import { CreateBookingBody } from "@/lib/schemas/booking";
import { hashCancelToken } from "@/lib/services/bookings/store";

// Rows written straight into a test's transaction (tests/support/rollback.ts), for the service
// tests: what the API's factories make (tests/support/factories.ts, teams.ts) without HTTP,
// argon2 or a commit, and states the API has no verb for (a booking made weeks ago, a request
// past its start). Each helper writes what the service's own writers would, and no more.

const MINUTE = 60_000;

/** An instant as epoch milliseconds: `at("2031-03-10", "09:00", "Europe/Berlin")`. */
export function at(date: string, time: string, zone = "UTC"): number {
  return DateTime.fromISO(`${date}T${time}`, { zone }).toMillis();
}

/** A host with a default schedule (no hours until `openOn` gives some), bookable without notice. */
export async function insertHost(tx: Tx, fields: Partial<typeof users.$inferInsert> = {}): Promise<UserRow> {
  const username = `host-${randomBytes(5).toString("hex")}`;
  const [user] = await tx
    .insert(users)
    .values({
      id: newId("usr"),
      email: `${username}@example.com`,
      passwordHash: "not a hash: this host never logs in",
      fullName: "Test Host",
      username,
      timezone: "UTC",
      minNoticeHours: 0,
      maxAdvanceDays: 365 * 10,
      ...fields,
    })
    .returning();
  await tx.insert(schedules).values({ id: newId("sch"), userId: user!.id, name: "Working hours", timezone: null, isDefault: true });
  return user!;
}

/** Opens the host's default schedule on `date` for the given hours (wall clock, in the host's zone); every other date stays closed. */
export async function openOn(tx: Tx, host: UserRow, date: string, hours: [string, string][] = [["09:00", "17:00"]]): Promise<void> {
  const [schedule] = await tx
    .select({ id: schedules.id })
    .from(schedules)
    .where(and(eq(schedules.userId, host.id), eq(schedules.isDefault, true)));
  await tx.insert(availabilityOverrides).values({
    userId: host.id,
    scheduleId: schedule!.id,
    date,
    available: true,
    intervals: hours.map(([startTime, endTime]) => ({ startTime, endTime })),
  });
}

/** A personal event type of the host (30 minutes unless told). */
export async function insertEventType(tx: Tx, host: UserRow, fields: Partial<typeof eventTypes.$inferInsert> = {}): Promise<EventTypeRow> {
  const [row] = await tx
    .insert(eventTypes)
    .values({ id: newId("evt"), userId: host.id, slug: `meet-${randomBytes(4).toString("hex")}`, title: "Intro call", durationMinutes: 30, ...fields })
    .returning();
  return row!;
}

/**
 * A team whose members are all active (the first its owner) and one event type of the team that
 * they all host, in the order given (round robin unless told).
 */
export async function insertTeam(
  tx: Tx,
  members: UserRow[],
  fields: Partial<typeof eventTypes.$inferInsert> = {},
): Promise<{ team: TeamRow; eventType: EventTypeRow }> {
  const [team] = await tx.insert(teams).values({ id: newId("team"), slug: `team-${randomBytes(4).toString("hex")}`, name: "Sales" }).returning();
  await tx.insert(teamMembers).values(
    members.map((m, i) => ({ teamId: team!.id, userId: m.id, role: i === 0 ? ("owner" as const) : ("member" as const), status: "active" as const, acceptedAt: new Date() })),
  );
  const [eventType] = await tx
    .insert(eventTypes)
    .values({
      id: newId("evt"),
      teamId: team!.id,
      schedulingType: "round_robin",
      hostIds: members.map((m) => m.id),
      slug: `team-call-${randomBytes(4).toString("hex")}`,
      title: "Team call",
      durationMinutes: 30,
      ...fields,
    })
    .returning();
  return { team: team!, eventType: eventType! };
}

/**
 * A booking of `eventType` hosted by `hosts` (the first its own host; the others' rows of
 * booking_hosts written as a collective booking's commit writes them), past every check of the
 * service. Confirmed, made at its start minus a day, unless told.
 */
export async function insertBooking(
  tx: Tx,
  hosts: UserRow | UserRow[],
  eventType: Pick<EventTypeRow, "id" | "durationMinutes">,
  start: number,
  extra: Partial<typeof bookings.$inferInsert> = {},
): Promise<BookingRow> {
  const [host, ...coHosts] = Array.isArray(hosts) ? hosts : [hosts];
  const [row] = await tx.insert(bookings).values(bookingValues(host!, eventType, start, extra)).returning();
  if (coHosts.length > 0) {
    await tx.insert(bookingHosts).values(
      coHosts.map((h) => ({
        bookingId: row!.id,
        userId: h.id,
        blockedStart: row!.blockedStart,
        blockedEnd: row!.blockedEnd,
        cancelled: row!.status === "cancelled",
        startTime: row!.startTime,
        status: row!.status,
      })),
    );
  }
  return row!;
}

/** A booking's row for `insertBooking` (or for many at once, in one insert: one host each). */
export function bookingValues(
  host: UserRow,
  eventType: Pick<EventTypeRow, "id" | "durationMinutes">,
  start: number,
  extra: Partial<typeof bookings.$inferInsert> = {},
): typeof bookings.$inferInsert {
  const end = start + eventType.durationMinutes * MINUTE;
  return {
    id: newId("bkg"),
    hostId: host.id,
    eventTypeId: eventType.id,
    status: "confirmed",
    startTime: new Date(start),
    endTime: new Date(end),
    blockedStart: new Date(start),
    blockedEnd: new Date(end),
    guestName: "Direct Guest",
    guestEmail: `guest-${randomBytes(4).toString("hex")}@example.com`,
    guestTimezone: "UTC",
    cancelTokenHash: hashCancelToken(randomUUID()),
    createdAt: new Date(start - 1440 * MINUTE),
    ...extra,
  };
}

/** An active webhook of the host for the events given (all booking events unless told). */
export async function insertWebhook(tx: Tx, host: UserRow, fields: Partial<typeof webhooks.$inferInsert> = {}): Promise<string> {
  const [row] = await tx
    .insert(webhooks)
    .values({
      id: newId("whk"),
      userId: host.id,
      url: "https://hooks.example.com/booking",
      events: ["booking.created", "booking.confirmed", "booking.rescheduled", "booking.cancelled", "booking.no_show_updated"],
      secretEncrypted: "not read by these tests",
      ...fields,
    })
    .returning({ id: webhooks.id });
  return row!.id;
}

/** A calendar connection of the host with one calendar (checks conflicts; the write target if told). */
export async function insertCalendar(
  tx: Tx,
  host: UserRow,
  fields: { provider?: "provider_a" | "provider_b" | "provider_c"; writeTarget?: boolean } = {},
): Promise<string> {
  const [connection] = await tx
    .insert(calendarConnections)
    .values({
      id: newId("cal"),
      userId: host.id,
      provider: fields.provider ?? "provider_c",
      email: host.email,
      credentialsEncrypted: "not read by these tests",
      busyAsOf: new Date(),
    })
    .returning();
  const [calendar] = await tx
    .insert(calendars)
    .values({ id: newId("cld"), connectionId: connection!.id, userId: host.id, externalId: randomUUID(), name: "Work", writeTarget: fields.writeTarget ?? false })
    .returning({ id: calendars.id });
  return calendar!.id;
}

/** A guest's booking request as the public route parses it (CreateBookingBody), for createBooking / createTeamBooking. */
export function bookingInput(start: number, fields: Record<string, unknown> = {}) {
  return CreateBookingBody.parse({
    startTime: new Date(start).toISOString(),
    guestName: "Grace Guest",
    guestEmail: `grace-${randomBytes(4).toString("hex")}@example.com`,
    guestTimezone: "Europe/Berlin",
    ...fields,
  });
}
