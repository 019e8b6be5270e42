import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { outOfOffice, users } from "@/db/schema";
import { getDb } from "@/lib/store/database";
import { api } from "../support/api";
import { book, clientHeaders, dateIn, getSlots, guest } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { teamWithType } from "../support/teams";

// Days off end to end (decisions §21): the loader reads a host's time off and public holidays
// (the holiday library's, for the host's country) into the one engine, so the slot list, the
// booking's own re-check and explain all leave those days out; a round robin passes over the host.
// The rows are written straight into the tables here, before anything reads the host (the API
// that writes them is tested with its pages); the days are the host's, in the host's zone.

withTestDatabase();

const ALL_WEEK = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: "09:00", endTime: "12:00" }));

async function hostOpenAllWeek(timezone: string, fullName?: string): Promise<TestHost> {
  const host = await createHost({ timezone, ...(fullName ? { fullName } : {}) });
  const res = await api.put("/me/availability", { minNoticeHours: 0, maxAdvanceDays: 400, weeklyRules: ALL_WEEK, dateOverrides: [] }, { token: host.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return host;
}

const explain = (host: TestHost, eventTypeId: string, startTime: string, language: string) =>
  api.get(`/me/event-types/${eventTypeId}/explain?startTime=${encodeURIComponent(startTime)}`, { token: host.token, headers: { "accept-language": language } });

async function awayOn(host: TestHost, startDate: string, endDate: string) {
  await (await getDb()).insert(outOfOffice).values({ id: `ooo_${randomUUID()}`, userId: host.id, startDate, endDate, note: "Conference" });
}

/** The next 25 December at least two days ahead, in Berlin. */
function nextChristmas(): string {
  const today = DateTime.now().setZone("Europe/Berlin");
  const thisYear = DateTime.fromISO(`${today.year}-12-25`, { zone: "Europe/Berlin" });
  return (thisYear.diff(today, "days").days >= 2 ? thisYear : thisYear.plus({ years: 1 })).toISODate()!;
}

describe("public holidays", () => {
  it("a German host's Christmas Day offers nothing, explain names it in the asker's language, and a day worked anyway is open", async () => {
    const christmas = nextChristmas();
    const eve = DateTime.fromISO(christmas).minus({ days: 1 }).toISODate()!;
    const host = await hostOpenAllWeek("Europe/Berlin");
    await (await getDb()).update(users).set({ holidayCountry: "DE", holidayRegion: "BY" }).where(eq(users.id, host.id));
    const et = await createEventType(host, { durationMinutes: 60 });

    expect(await getSlots(host, et.slug, christmas)).toEqual([]);
    // Christmas Eve is no public holiday in Germany: its three hours stay.
    expect(await getSlots(host, et.slug, eve)).toHaveLength(3);
    const nine = DateTime.fromISO(`${christmas}T09:00`, { zone: "Europe/Berlin" }).toUTC().toISO({ suppressMilliseconds: true })!;
    const de = await explain(host, et.id, nine, "de-DE,de;q=0.9");
    expect(de.body).toMatchObject({ bookable: false, reasons: [{ code: "holiday", date: christmas, name: "1. Weihnachtstag", message: expect.stringContaining("public holiday") }] });
    expect((await explain(host, et.id, nine, "en-GB")).body.reasons[0].name).toBe("Christmas Day");
    expect((await explain(host, et.id, nine, "fr")).body.reasons[0].name).toBe("Noël");
    // The booking's own re-check reads the same days: a start on the holiday is refused.
    expect((await book(host, et.slug, nine)).status).toBe(409);

    const works = await hostOpenAllWeek("Europe/Berlin");
    await (await getDb()).update(users).set({ holidayCountry: "DE", holidayWorkingOn: [christmas] }).where(eq(users.id, works.id));
    const open = await createEventType(works, { durationMinutes: 60 });
    expect(await getSlots(works, open.slug, christmas)).toHaveLength(3);
  });
});

describe("time off", () => {
  it("no slots on the days away, in the host's zone, for a guest anywhere; the day after is open; a booking on them is refused", async () => {
    const host = await hostOpenAllWeek("Pacific/Auckland");
    const first = dateIn(3, "Pacific/Auckland");
    const last = dateIn(4, "Pacific/Auckland");
    const back = dateIn(5, "Pacific/Auckland");
    await awayOn(host, first, last);
    const et = await createEventType(host, { durationMinutes: 60 });

    expect(await getSlots(host, et.slug, first, last)).toEqual([]);
    expect(await getSlots(host, et.slug, back)).toHaveLength(3);
    // In Honolulu, 23 hours behind, the host's mornings fall on the guest's previous day.
    const honolulu = await getSlots(host, et.slug, dateIn(0, "Pacific/Honolulu"), dateIn(10, "Pacific/Honolulu"), "Pacific/Honolulu");
    const hostDates = new Set(honolulu.map((s) => DateTime.fromISO(s.startTime).setZone("Pacific/Auckland").toISODate()));
    expect(hostDates.has(first) || hostDates.has(last)).toBe(false);
    expect(hostDates.has(back)).toBe(true);

    const nine = DateTime.fromISO(`${first}T09:00`, { zone: "Pacific/Auckland" }).toUTC().toISO({ suppressMilliseconds: true })!;
    expect((await book(host, et.slug, nine)).status).toBe(409);
    const why = await explain(host, et.id, nine, "en");
    expect(why.body.reasons).toEqual([expect.objectContaining({ code: "out_of_office", startDate: first, endDate: last, message: expect.stringContaining("You are away") })]);
  });

  it("a round robin passes over the host who is away, and books the other; a collective offers nothing that day", async () => {
    const ann = await hostOpenAllWeek("UTC", "Ann");
    const ben = await hostOpenAllWeek("UTC", "Ben");
    const day = dateIn(3, "UTC");
    await awayOn(ann, day, day);
    const { team, eventType } = await teamWithType(ann, [ben], { schedulingType: "round_robin", durationMinutes: 60 });
    const slots = await api.get(`/public/teams/${team.slug}/${eventType.slug}/slots?from=${day}&to=${day}&timezone=UTC`, { headers: clientHeaders() });
    expect(slots.body.slots.map((s: { startTime: string }) => s.startTime)).toEqual([`${day}T09:00:00Z`, `${day}T10:00:00Z`, `${day}T11:00:00Z`]);
    for (const startTime of [`${day}T09:00:00Z`, `${day}T10:00:00Z`]) {
      const res = await api.post(`/public/teams/${team.slug}/${eventType.slug}/bookings`, { startTime, ...guest() }, { headers: { "idempotency-key": randomUUID(), ...clientHeaders() } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.hostNames).toEqual(["Ben"]);
    }
    const collective = await teamWithType(ann, [ben], { schedulingType: "collective", durationMinutes: 60 });
    const none = await api.get(`/public/teams/${collective.team.slug}/${collective.eventType.slug}/slots?from=${day}&to=${day}&timezone=UTC`, { headers: clientHeaders() });
    expect(none.body.slots).toEqual([]);
  });
});
