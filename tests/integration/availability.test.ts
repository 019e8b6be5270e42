import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { withTestDatabase } from "../support/database";
import { createHost } from "../support/factories";

withTestDatabase();

const valid = {
  minNoticeHours: 12,
  maxAdvanceDays: 30,
  weeklyRules: [
    { dayOfWeek: 1, startTime: "13:00", endTime: "17:00" },
    { dayOfWeek: 1, startTime: "09:00", endTime: "12:00" },
    { dayOfWeek: 3, startTime: "12:00", endTime: "24:00" },
  ],
  dateOverrides: [
    { date: "2027-03-17", available: true, intervals: [{ startTime: "15:00", endTime: "18:00" }, { startTime: "08:00", endTime: "10:00" }] },
    { date: "2027-03-15", available: false },
  ],
};

describe("PUT /me/availability", () => {
  it("stores split rules and overrides and returns them in order", async () => {
    const host = await createHost({ timezone: "Europe/Berlin" });
    const res = await api.put("/me/availability", valid, { token: host.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const expected = {
      timezone: "Europe/Berlin",
      minNoticeHours: 12,
      maxAdvanceDays: 30,
      weeklyRules: [
        { dayOfWeek: 1, startTime: "09:00", endTime: "12:00" },
        { dayOfWeek: 1, startTime: "13:00", endTime: "17:00" },
        { dayOfWeek: 3, startTime: "12:00", endTime: "24:00" },
      ],
      dateOverrides: [
        { date: "2027-03-15", available: false },
        { date: "2027-03-17", available: true, intervals: [{ startTime: "08:00", endTime: "10:00" }, { startTime: "15:00", endTime: "18:00" }] },
      ],
    };
    expect(res.body).toEqual(expected);
    expect((await api.get("/me/availability", { token: host.token })).body).toEqual(expected);
  });

  it("updates the profile timezone when the body carries one", async () => {
    const host = await createHost({ timezone: "Europe/Berlin" });
    const res = await api.put("/me/availability", { ...valid, timezone: "America/Los_Angeles" }, { token: host.token });
    expect(res.body.timezone).toBe("America/Los_Angeles");
    expect((await api.get("/me", { token: host.token })).body.timezone).toBe("America/Los_Angeles");
  });

  it("accepts empty rules and overrides (a host taking a break)", async () => {
    const host = await createHost();
    const res = await api.put("/me/availability", { minNoticeHours: 0, maxAdvanceDays: 1, weeklyRules: [], dateOverrides: [] }, { token: host.token });
    expect(res.status).toBe(200);
    expect(res.body.weeklyRules).toEqual([]);
  });

  it("allows rules that touch (12:00–12:00 boundaries) but not rules that overlap", async () => {
    const host = await createHost();
    const touching = [
      { dayOfWeek: 2, startTime: "09:00", endTime: "12:00" },
      { dayOfWeek: 2, startTime: "12:00", endTime: "15:00" },
    ];
    expect((await api.put("/me/availability", { ...valid, weeklyRules: touching }, { token: host.token })).status).toBe(200);
    const overlapping = [...touching, { dayOfWeek: 2, startTime: "14:30", endTime: "16:00" }];
    const res = await api.put("/me/availability", { ...valid, weeklyRules: overlapping }, { token: host.token });
    expect(res.status).toBe(400);
    expect(res.body.details.issues).toEqual([expect.objectContaining({ path: "weeklyRules.2.startTime" })]);
  });

  it.each([
    ["weeklyRules.0.endTime", { weeklyRules: [{ dayOfWeek: 1, startTime: "10:00", endTime: "09:00" }] }],
    ["weeklyRules.0.endTime", { weeklyRules: [{ dayOfWeek: 1, startTime: "10:00", endTime: "10:00" }] }],
    ["weeklyRules.0.startTime", { weeklyRules: [{ dayOfWeek: 1, startTime: "9:00", endTime: "10:00" }] }],
    ["weeklyRules.0.endTime", { weeklyRules: [{ dayOfWeek: 1, startTime: "09:00", endTime: "24:30" }] }],
    ["weeklyRules.0.dayOfWeek", { weeklyRules: [{ dayOfWeek: 7, startTime: "09:00", endTime: "10:00" }] }],
    ["minNoticeHours", { minNoticeHours: -1 }],
    ["minNoticeHours", { minNoticeHours: 8761 }],
    ["maxAdvanceDays", { maxAdvanceDays: 0 }],
    ["maxAdvanceDays", { maxAdvanceDays: 731 }],
    ["timezone", { timezone: "Europe/Atlantis" }],
    ["dateOverrides.0.date", { dateOverrides: [{ date: "2027-02-30", available: false }] }],
    ["dateOverrides.1.date", { dateOverrides: [{ date: "2027-03-01", available: false }, { date: "2027-03-01", available: false }] }],
    ["dateOverrides.0.intervals", { dateOverrides: [{ date: "2027-03-01", available: true }] }],
    ["dateOverrides.0.intervals", { dateOverrides: [{ date: "2027-03-01", available: true, intervals: [] }] }],
    ["dateOverrides.0.intervals", { dateOverrides: [{ date: "2027-03-01", available: false, intervals: [{ startTime: "09:00", endTime: "10:00" }] }] }],
    ["dateOverrides.0.intervals.1.startTime", {
      dateOverrides: [{ date: "2027-03-01", available: true, intervals: [{ startTime: "09:00", endTime: "11:00" }, { startTime: "10:00", endTime: "12:00" }] }],
    }],
    ["weeklyRules", { weeklyRules: undefined }],
  ])("answers 400 at %s and leaves the stored availability alone", async (path, change) => {
    const host = await createHost();
    await api.put("/me/availability", valid, { token: host.token });
    const res = await api.put("/me/availability", { ...valid, ...change }, { token: host.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("validation_error");
    expect(res.body.details.issues.map((i: { path: string }) => i.path)).toContain(path);
    const after = await api.get("/me/availability", { token: host.token });
    expect(after.body.minNoticeHours).toBe(12);
    expect(after.body.weeklyRules).toHaveLength(3);
  });

  it("is private to each host", async () => {
    const a = await createHost();
    const b = await createHost();
    await api.put("/me/availability", valid, { token: a.token });
    const bView = await api.get("/me/availability", { token: b.token });
    expect(bView.body.minNoticeHours).toBe(4);
    expect(bView.body.weeklyRules).toHaveLength(5);
    expect((await api.get("/me/availability")).status).toBe(401);
  });
});
