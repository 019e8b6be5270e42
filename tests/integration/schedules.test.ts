import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { createTeam, join } from "../support/teams";

// Schedules (decisions §16): named hours per host, /me/availability being the default one; event
// types pick one by scheduleId, and their slots follow its hours and zone, and the event type's
// own notice and window.

withTestDatabase();

const as = (h: TestHost) => ({ token: h.token });
const at = (date: string, time: string, zone: string) => DateTime.fromISO(`${date}T${time}`, { zone }).toUTC().toISO({ suppressMilliseconds: true })!;

function evenings(date: string, fields: Record<string, unknown> = {}) {
  return {
    name: "New York evenings",
    timezone: "America/New_York",
    weeklyRules: [],
    dateOverrides: [{ date, available: true, intervals: [{ startTime: "18:00", endTime: "19:00" }] }],
    ...fields,
  };
}

async function createSchedule(host: TestHost, body: Record<string, unknown>) {
  const res = await api.post("/me/schedules", body, as(host));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe("/me/schedules", () => {
  it("a new host has one default schedule, and it is /me/availability", async () => {
    const host = await createHost({ timezone: "Europe/Berlin" });
    const list = await api.get("/me/schedules", as(host));
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      {
        id: expect.stringMatching(/^sch_/),
        name: "Working hours",
        timezone: "Europe/Berlin",
        weeklyRules: [1, 2, 3, 4, 5].map((dayOfWeek) => ({ dayOfWeek, startTime: "09:00", endTime: "17:00" })),
        dateOverrides: [],
        isDefault: true,
      },
    ]);
    const [def] = list.body.data;

    // Written through /me/availability, read through the schedule…
    const date = dateIn(6, host.timezone);
    await openOnly(host, date, [{ startTime: "10:00", endTime: "11:00" }]);
    const read = await api.get(`/me/schedules/${def.id}`, as(host));
    expect(read.body).toMatchObject({ isDefault: true, weeklyRules: [], dateOverrides: [{ date, available: true, intervals: [{ startTime: "10:00", endTime: "11:00" }] }] });

    // …and the other way, the default's timezone being the host's own.
    const put = await api.put(`/me/schedules/${def.id}`, { name: "Office", timezone: "Asia/Kolkata", weeklyRules: [{ dayOfWeek: 3, startTime: "08:00", endTime: "12:00" }], dateOverrides: [] }, as(host));
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ id: def.id, name: "Office", timezone: "Asia/Kolkata", isDefault: true });
    const availability = await api.get("/me/availability", as(host));
    expect(availability.body).toMatchObject({ timezone: "Asia/Kolkata", weeklyRules: [{ dayOfWeek: 3, startTime: "08:00", endTime: "12:00" }], dateOverrides: [] });
    expect((await api.get("/me", as(host))).body.timezone).toBe("Asia/Kolkata");
  });

  it("creates, reads, replaces and deletes a schedule of its own zone; another host's is 404", async () => {
    const host = await createHost({ timezone: "Europe/Berlin" });
    const date = dateIn(8, "America/New_York");
    const created = await createSchedule(host, evenings(date));
    expect(created).toEqual({
      id: expect.stringMatching(/^sch_/),
      name: "New York evenings",
      timezone: "America/New_York",
      weeklyRules: [],
      dateOverrides: [{ date, available: true, intervals: [{ startTime: "18:00", endTime: "19:00" }] }],
      isDefault: false,
    });
    // The zone left out: the host's.
    const plain = await createSchedule(host, { name: "Plain" });
    expect(plain).toMatchObject({ timezone: "Europe/Berlin", weeklyRules: [], dateOverrides: [], isDefault: false });

    const list = (await api.get("/me/schedules", as(host))).body.data as { id: string; isDefault: boolean }[];
    expect(list.map((s) => s.id)).toEqual([expect.any(String), created.id, plain.id]);
    expect(list[0]!.isDefault).toBe(true);

    const renamed = await api.put(`/me/schedules/${created.id}`, { name: "Late", weeklyRules: [{ dayOfWeek: 5, startTime: "20:00", endTime: "24:00" }], dateOverrides: [] }, as(host));
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Late", timezone: "America/New_York", weeklyRules: [{ dayOfWeek: 5, startTime: "20:00", endTime: "24:00" }], dateOverrides: [] });

    const other = await createHost();
    expect((await api.get(`/me/schedules/${created.id}`, as(other))).status).toBe(404);
    expect((await api.put(`/me/schedules/${created.id}`, { name: "Mine", weeklyRules: [], dateOverrides: [] }, as(other))).status).toBe(404);
    expect((await api.delete(`/me/schedules/${created.id}`, as(other))).status).toBe(404);

    expect((await api.delete(`/me/schedules/${plain.id}`, as(host))).status).toBe(204);
    expect((await api.get(`/me/schedules/${plain.id}`, as(host))).status).toBe(404);
    expect((await api.get("/me/schedules")).status).toBe(401);
  });

  it("checks hours as /me/availability does: 400 at the field", async () => {
    const host = await createHost();
    const overlap = await api.post(
      "/me/schedules",
      { name: "Bad", weeklyRules: [{ dayOfWeek: 1, startTime: "09:00", endTime: "12:00" }, { dayOfWeek: 1, startTime: "11:00", endTime: "13:00" }] },
      as(host),
    );
    expect(overlap.status).toBe(400);
    expect(overlap.body.details.issues).toEqual([expect.objectContaining({ path: "weeklyRules.1.startTime" })]);
    const noName = await api.post("/me/schedules", { name: "  ", timezone: "Mars/Base" }, as(host));
    expect(noName.status).toBe(400);
    expect(noName.body.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(["name", "timezone"]);
  });

  it("the default cannot be deleted nor unmarked; another made the default takes the host's zone with it", async () => {
    const host = await createHost({ timezone: "Europe/Berlin" });
    const [def] = (await api.get("/me/schedules", as(host))).body.data;
    const refused = await api.delete(`/me/schedules/${def.id}`, as(host));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe("conflict");
    const unmark = await api.put(`/me/schedules/${def.id}`, { name: "x", weeklyRules: [], dateOverrides: [], isDefault: false }, as(host));
    expect(unmark.status).toBe(400);
    expect(unmark.body.details.issues).toEqual([expect.objectContaining({ path: "isDefault" })]);

    const date = dateIn(8, "America/New_York");
    const ny = await createSchedule(host, evenings(date));
    const promoted = await api.put(`/me/schedules/${ny.id}`, { ...evenings(date), isDefault: true }, as(host));
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    expect(promoted.body).toMatchObject({ isDefault: true, timezone: "America/New_York" });
    expect((await api.get("/me", as(host))).body.timezone).toBe("America/New_York");
    expect((await api.get("/me/availability", as(host))).body).toMatchObject({ timezone: "America/New_York", dateOverrides: evenings(date).dateOverrides });
    // The old default keeps its hours, read in the zone it had.
    const old = await api.get(`/me/schedules/${def.id}`, as(host));
    expect(old.body).toMatchObject({ isDefault: false, timezone: "Europe/Berlin", weeklyRules: def.weeklyRules });
    expect((await api.delete(`/me/schedules/${def.id}`, as(host))).status).toBe(204);
  });
});

describe("event types and their schedule", () => {
  it("scheduleId: the host's own (default null); another host's is 400 at scheduleId; a schedule in use cannot be deleted", async () => {
    const host = await createHost();
    const other = await createHost();
    const mine = await createSchedule(host, evenings(dateIn(8, "America/New_York")));
    const theirs = await createSchedule(other, { name: "Theirs" });

    const plain = await createEventType(host);
    expect(plain.scheduleId).toBeNull();
    const et = await createEventType(host, { scheduleId: mine.id });
    expect(et.scheduleId).toBe(mine.id);

    for (const res of [
      await api.post("/me/event-types", { slug: "foreign", title: "Foreign", durationMinutes: 30, scheduleId: theirs.id }, as(host)),
      await api.patch(`/me/event-types/${plain.id}`, { scheduleId: theirs.id }, as(host)),
      await api.patch(`/me/event-types/${plain.id}`, { scheduleId: "sch_nothing" }, as(host)),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.details.issues).toEqual([expect.objectContaining({ path: "scheduleId" })]);
    }

    const inUse = await api.delete(`/me/schedules/${mine.id}`, as(host));
    expect(inUse.status).toBe(409);
    expect(inUse.body).toMatchObject({ error: "conflict", details: { eventTypeIds: [et.id] } });
    expect(inUse.body.message).toContain("Intro call");

    expect((await api.patch(`/me/event-types/${et.id}`, { scheduleId: null }, as(host))).body.scheduleId).toBeNull();
    expect((await api.delete(`/me/schedules/${mine.id}`, as(host))).status).toBe(204);
  });

  it("a team event type has no schedule of its own: null, and a schedule id is refused", async () => {
    const owner = await createHost();
    const member = await createHost();
    const team = await createTeam(owner);
    await join(owner, team.id, member);
    const mine = await createSchedule(owner, { name: "Mine" });
    const refused = await api.post(`/me/teams/${team.id}/event-types`, { slug: "demo", title: "Demo", durationMinutes: 30, schedulingType: "round_robin", scheduleId: mine.id }, as(owner));
    expect(refused.status).toBe(400);
    const made = await api.post(`/me/teams/${team.id}/event-types`, { slug: "demo", title: "Demo", durationMinutes: 30, schedulingType: "round_robin", scheduleId: null }, as(owner));
    expect(made.status).toBe(201);
    expect(made.body.scheduleId).toBeNull();
  });

  it("slots follow the event type's schedule and zone, and a change to that schedule shows at once", async () => {
    const host = await createHost({ timezone: "Europe/Berlin" });
    const date = dateIn(8, "America/New_York");
    await openOnly(host, date, [{ startTime: "09:00", endTime: "10:00" }]);
    const ny = await createSchedule(host, evenings(date));
    const office = await createEventType(host, { durationMinutes: 30 });
    const evening = await createEventType(host, { durationMinutes: 30, scheduleId: ny.id });

    expect((await getSlots(host, office.slug, date)).map((s) => s.startTime)).toEqual([at(date, "09:00", "Europe/Berlin"), at(date, "09:30", "Europe/Berlin")]);
    const slots = await getSlots(host, evening.slug, date, date, "America/New_York");
    expect(slots.map((s) => s.startTime)).toEqual([at(date, "18:00", "America/New_York"), at(date, "18:30", "America/New_York")]);
    expect(slots[0]!.displayStart).toMatch(new RegExp(`^${date}T18:00:00-0[45]:00$`));

    // The schedule's hours change: the cached list of its event type follows.
    const moved = await api.put(`/me/schedules/${ny.id}`, { ...evenings(date), dateOverrides: [{ date, available: true, intervals: [{ startTime: "07:00", endTime: "07:30" }] }] }, as(host));
    expect(moved.status).toBe(200);
    expect((await getSlots(host, evening.slug, date, date, "America/New_York")).map((s) => s.startTime)).toEqual([at(date, "07:00", "America/New_York")]);
    // And the other event type still reads the default.
    expect((await getSlots(host, office.slug, date)).length).toBe(2);

    // Explain reads the same schedule: 09:00 Berlin is outside the evening type's hours.
    const why = await api.get(`/me/event-types/${evening.id}/explain?startTime=${encodeURIComponent(at(date, "09:00", "Europe/Berlin"))}`, as(host));
    expect(why.body.reasons.map((r: { code: string }) => r.code)).toEqual(["outside_hours"]);
  });

  it("an event type's own notice and window replace the host's; null falls back to them", async () => {
    const host = await createHost({ timezone: "Europe/Berlin" });
    const date = dateIn(5, host.timezone);
    await openOnly(host, date, [{ startTime: "09:00", endTime: "10:00" }], { minNoticeHours: 0, maxAdvanceDays: 60 });
    const hosts = await createEventType(host);
    const shortWindow = await createEventType(host, { maxAdvanceDays: 2 });
    const longNotice = await createEventType(host, { minNoticeHours: 24 * 10 });
    expect((await getSlots(host, hosts.slug, date)).length).toBe(2);
    expect(await getSlots(host, shortWindow.slug, date)).toEqual([]);
    expect(await getSlots(host, longNotice.slug, date)).toEqual([]);

    const start = encodeURIComponent(at(date, "09:00", host.timezone));
    const window = await api.get(`/me/event-types/${shortWindow.id}/explain?startTime=${start}`, as(host));
    expect(window.body.reasons).toEqual([expect.objectContaining({ code: "beyond_window", maxAdvanceDays: 2 })]);
    const notice = await api.get(`/me/event-types/${longNotice.id}/explain?startTime=${start}`, as(host));
    expect(notice.body.reasons).toEqual([expect.objectContaining({ code: "min_notice", minNoticeHours: 240 })]);

    // Back to the host's: null.
    const reset = await api.patch(`/me/event-types/${shortWindow.id}`, { maxAdvanceDays: null }, as(host));
    expect(reset.body.maxAdvanceDays).toBeNull();
    expect((await getSlots(host, shortWindow.slug, date)).length).toBe(2);
  });
});
