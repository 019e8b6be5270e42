import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users, type UserRow } from "@/db/schema";
import { BOOKING_VIEWS, BOOKINGS_PAGE_SIZE, bookingsPage, type BookingView } from "@/lib/dashboard/booking-views";
import { locateBooking } from "@/lib/dashboard/locate-booking";
import { listQueryOf } from "@/lib/dashboard/prefetch";
import { listBookings } from "@/lib/services/bookings/list";
import { getDb } from "@/lib/store/database";
import { insertBookingRow } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost } from "../support/factories";

// Every email a host gets about a booking links to /dashboard/bookings?booking=<id>: the page
// opens on the view that lists the booking and on the page of that view where it is. Checked
// against the list itself: for every booking of a host with several pages in every view, the
// page it is sent to is a page of that view that shows it.

withTestDatabase({ isolated: true });

const HOUR = 3_600_000;

async function userRow(id: string): Promise<UserRow> {
  const [row] = await (await getDb()).select().from(users).where(eq(users.id, id));
  return row!;
}

/** The page of `view` the dashboard would show, as the list endpoint answers it. */
async function shown(host: UserRow, view: BookingView, page: number, now: number): Promise<string[]> {
  return (await listBookings(await getDb(), host, listQueryOf(bookingsPage(view, page)), now)).data.map((b) => b.id);
}

describe("where an email's link to a booking opens the bookings page", () => {
  it("on the view that lists the booking and the page of it where the booking is", async () => {
    const ada = await createHost({ timezone: "Asia/Kolkata" });
    const eventType = await createEventType(ada, { durationMinutes: 30 });
    const now = Date.now();
    const base = Math.floor(now / HOUR) * HOUR;
    // Upcoming (23 confirmed, 4 requests among them), past (14, two of them no-shows), cancelled
    // (12, some past, some to come, two at the same start: the list then orders by id): more
    // than a page of each.
    const made: { id: string; expected: BookingView }[] = [];
    const add = async (offsetHours: number, expected: BookingView, extra: Parameters<typeof insertBookingRow>[4] = {}) => {
      const { row } = await insertBookingRow(ada.id, eventType.id, new Date(base + offsetHours * HOUR), 30, extra);
      made.push({ id: row.id, expected });
    };
    for (let i = 0; i < 23; i++) await add(24 + i * 3, "upcoming");
    for (let i = 0; i < 4; i++) await add(25 + i * 6, "requests", { status: "pending" });
    for (let i = 0; i < 14; i++) await add(-24 - i * 5, "past", { noShow: i % 7 === 0 });
    const cancelled = { status: "cancelled", cancelledBy: "guest", cancelledAt: new Date(now) } as const;
    for (let i = 0; i < 11; i++) await add((i % 2 ? 1 : -1) * (30 + i * 4), "cancelled", cancelled);
    await add(34, "cancelled", cancelled);

    const host = await userRow(ada.id);
    const pages = new Set<string>();
    for (const { id, expected } of made) {
      const found = await locateBooking(host, id, now);
      expect(found?.view, id).toBe(expected);
      expect(await shown(host, found!.view, found!.page, now), `${expected} page ${found!.page}`).toContain(id);
      pages.add(`${found!.view}:${found!.page}`);
    }
    // Every view spans pages here, so the page is not always the first.
    for (const view of ["upcoming", "past", "cancelled"] satisfies BookingView[]) expect(pages.has(`${view}:2`), view).toBe(true);
    expect(pages.has("upcoming:3")).toBe(true);
    expect(BOOKINGS_PAGE_SIZE).toBe(10);
    expect(BOOKING_VIEWS.upcoming.filter.status).toBe("pending,confirmed");
  });

  it("nowhere for a booking the host does not host, or one that does not exist", async () => {
    const ada = await createHost();
    const ben = await createHost();
    const bensType = await createEventType(ben, { durationMinutes: 30 });
    const { row } = await insertBookingRow(ben.id, bensType.id, new Date(Date.now() + 48 * HOUR));
    expect(await locateBooking(await userRow(ada.id), row.id)).toBeUndefined();
    expect(await locateBooking(await userRow(ada.id), "bkg_nothing")).toBeUndefined();
    // What a hand-edited link may carry: no error, just no booking.
    for (const id of ["\u0000", `${row.id}\u0000`, "", "\ud800", "x".repeat(100_000), "bkg_' or '1'='1"]) {
      expect(await locateBooking(await userRow(ben.id), id), JSON.stringify(id.slice(0, 12))).toBeUndefined();
    }
    expect(await locateBooking(await userRow(ben.id), row.id)).toEqual({ view: "upcoming", page: 1 });
  });
});
