import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { book, clientHeaders } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { createTeam, createTeamEventType, teamWithType } from "../support/teams";

// One model (issue 38): a personal event type is a team of one. The same host's personal event
// type and a one-host team event type with the same settings are the same question to the slot
// list and to the explainer, over HTTP, in every guest zone and across the host's clock change;
// and the two public path shapes are told apart by the cache even when their names are the same word.

withTestDatabase();

const ZONE = "America/New_York";
const SETTINGS = { durationMinutes: 45, slotIntervalMinutes: 15, bufferBeforeMinutes: 10, bufferAfterMinutes: 5 };

/** The first date, from three days ahead, on which the host's zone changes its clocks (always within 240 days). */
function nextClockChange(zone: string): DateTime {
  let day = DateTime.now().setZone(zone).startOf("day").plus({ days: 3 });
  while (day.offset === day.plus({ days: 1 }).offset) day = day.plus({ days: 1 });
  return day.plus({ days: 1 });
}

/** A host open every day around the clock (the skipped and repeated hours included), far enough ahead to reach the change. */
async function hostOpenAroundTheClock(): Promise<TestHost> {
  const host = await createHost({ timezone: ZONE });
  const weeklyRules = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: "00:00", endTime: "24:00" }));
  const res = await api.put("/me/availability", { minNoticeHours: 0, maxAdvanceDays: 300, weeklyRules, dateOverrides: [] }, { token: host.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return host;
}

async function slotsBody(path: string, from: string, to: string, timezone: string) {
  const res = await api.get(`${path}/slots?from=${from}&to=${to}&timezone=${encodeURIComponent(timezone)}`, { headers: clientHeaders() });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { timezone: string; slots: { startTime: string }[] };
}

describe("a personal event type is a team of one", () => {
  it("offers the same slots and gives the same reasons as a one-host team event type", async () => {
    const host = await hostOpenAroundTheClock();
    const personal = await createEventType(host, SETTINGS);
    const { team, eventType: teamType } = await teamWithType(host, [], { ...SETTINGS, schedulingType: "collective" });
    const change = nextClockChange(ZONE);
    const [from, to] = [change.minus({ days: 3 }).toISODate()!, change.plus({ days: 3 }).toISODate()!];
    const first = await slotsBody(`/public/${host.username}/${personal.slug}`, from, to, "UTC");
    const booked = await book(host, personal.slug, first.slots[40]!.startTime);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);

    for (const zone of ["UTC", "Europe/Berlin", "Asia/Kolkata", ZONE]) {
      const own = await slotsBody(`/public/${host.username}/${personal.slug}`, from, to, zone);
      const ofTeam = await slotsBody(`/public/teams/${team.slug}/${teamType.slug}`, from, to, zone);
      expect(own.slots.length).toBeGreaterThan(400);
      expect(ofTeam).toEqual(own);
    }

    // A free start, the booked one, one its buffer blocks, one off the grid, one in the night of the change.
    const at = (i: number) => first.slots[i]!.startTime;
    const offGrid = new Date(Date.parse(at(10)) + 5 * 60_000).toISOString();
    for (const start of [at(0), at(40), at(42), offGrid, change.set({ hour: 2, minute: 30 }).toUTC().toISO()!]) {
      const q = `explain?startTime=${encodeURIComponent(start)}`;
      const own = await api.get(`/me/event-types/${personal.id}/${q}`, { token: host.token });
      const ofTeam = await api.get(`/me/teams/${team.id}/event-types/${teamType.id}/${q}`, { token: host.token });
      expect(own.status).toBe(200);
      expect(ofTeam.status).toBe(200);
      expect(ofTeam.body).toMatchObject({ startTime: own.body.startTime, schedulingType: "collective", bookable: own.body.bookable });
      expect(ofTeam.body.hosts).toEqual([{ userId: host.id, username: host.username, fullName: "Test Host", bookable: own.body.bookable, reasons: own.body.reasons }]);
    }
  });

  it("keeps a host's and a team's event types apart when the username and the team's slug are the same word", async () => {
    const host = await createHost({ timezone: "UTC" });
    const other = await createHost({ timezone: "UTC" });
    await createEventType(host, { slug: "call", title: "The host's call", durationMinutes: 30 });
    const team = await createTeam(other, { slug: host.username, name: "Namesakes" });
    await createTeamEventType(other, team.id, { slug: "call", title: "The team's call", durationMinutes: 60 });
    for (let round = 0; round < 2; round++) {
      // The second round is answered from the cache: each path still gets its own.
      expect((await api.get(`/public/${host.username}/call`)).body.eventType).toMatchObject({ title: "The host's call", durationMinutes: 30 });
      expect((await api.get(`/public/teams/${host.username}/call`)).body.eventType).toMatchObject({ title: "The team's call", durationMinutes: 60 });
    }
  });
});
