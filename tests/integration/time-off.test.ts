import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { outOfOffice, users } from "@/db/schema";
import { newId } from "@/lib/ids";
import { awayNoticeOf } from "@/lib/services/time-off/away";
import { getDb } from "@/lib/store/database";
import { addDays, instantOfWall } from "@/lib/time/format";
import { api } from "../support/api";
import { dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";

// Time off and public holidays (decisions §21): the API's rules, each refusal at its field with
// nothing stored, authorisation, the guest pages' "Away until" and the days vanishing from slots.

withTestDatabase();

const period = (host: TestHost, body: Record<string, unknown>) => api.post("/me/out-of-office", body, { token: host.token });
const pathsOf = (res: { body: { details: { issues: { path: string }[] } } }) => res.body.details.issues.map((i) => i.path).sort();

async function rowsOf(host: TestHost) {
  return (await getDb()).select().from(outOfOffice).where(eq(outOfOffice.userId, host.id));
}

describe("out of office (/me/out-of-office)", () => {
  it("makes, lists and deletes a period, with its colleague and note", async () => {
    const host = await createHost();
    const colleague = await createHost({ fullName: "Ana Costa" });
    const start = dateIn(10, host.timezone);
    const made = await period(host, { startDate: start, endDate: addDays(start, 6), note: "  Conference  ", redirectUsername: colleague.username });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toEqual({
      id: expect.stringMatching(/^ooo_/),
      startDate: start,
      endDate: addDays(start, 6),
      note: "Conference",
      redirectUsername: colleague.username,
      redirectFullName: "Ana Costa",
    });
    const later = await period(host, { startDate: addDays(start, 30), endDate: addDays(start, 30) });
    expect(later.body).toMatchObject({ note: null, redirectUsername: null, redirectFullName: null });

    const listed = await api.get("/me/out-of-office", { token: host.token });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((p: { id: string }) => p.id)).toEqual([made.body.id, later.body.id]);

    expect((await api.delete(`/me/out-of-office/${made.body.id}`, { token: host.token })).status).toBe(204);
    expect((await api.get("/me/out-of-office", { token: host.token })).body.data).toEqual([later.body]);
    expect((await api.delete(`/me/out-of-office/${made.body.id}`, { token: host.token })).status).toBe(404);
  });

  it("lists only what has not ended, today counting (the host's zone)", async () => {
    const host = await createHost({ timezone: "Pacific/Kiritimati" });
    const today = dateIn(0, host.timezone);
    const [ended, current] = [newId("ooo"), newId("ooo")];
    await (await getDb()).insert(outOfOffice).values([
      { id: ended, userId: host.id, startDate: addDays(today, -5), endDate: addDays(today, -1) },
      { id: current, userId: host.id, startDate: addDays(today, -2), endDate: today },
    ]);
    expect((await api.get("/me/out-of-office", { token: host.token })).body.data.map((p: { id: string }) => p.id)).toEqual([current]);
  });

  it("refuses bad input at its field, in plain words, and stores nothing", async () => {
    const host = await createHost();
    const start = dateIn(5, host.timezone);
    const cases: [Record<string, unknown>, string[], RegExp][] = [
      [{ startDate: "2027-02-30", endDate: "2027-03-01" }, ["startDate"], /YYYY-MM-DD/],
      [{ startDate: start, endDate: "soon" }, ["endDate"], /YYYY-MM-DD/],
      [{ startDate: start, endDate: addDays(start, -1) }, ["endDate"], /on or after the start/],
      [{ startDate: start, endDate: addDays(start, 365) }, ["endDate"], /at most 365 days/],
      [{ startDate: dateIn(-3, host.timezone), endDate: dateIn(-1, host.timezone) }, ["endDate"], /today .* or later/],
      [{ startDate: start, endDate: start, note: "x".repeat(501) }, ["note"], /at most 500 characters/],
      [{ startDate: start, endDate: start, redirectUsername: "no-such-person-here" }, ["redirectUsername"], /No one has the username “no-such-person-here”/],
      [{ startDate: start, endDate: start, redirectUsername: host.username }, ["redirectUsername"], /not yourself/],
      [{ startDate: start, endDate: start, extra: 1 }, [""], /./],
    ];
    for (const [body, paths, words] of cases) {
      const res = await period(host, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("validation_error");
      if (paths[0] !== "") expect(pathsOf(res)).toEqual(paths);
      expect(JSON.stringify(res.body.details.issues)).toMatch(words);
    }
    // A year long exactly is allowed.
    expect((await period(host, { startDate: start, endDate: addDays(start, 364) })).status).toBe(201);
    expect(await rowsOf(host)).toHaveLength(1);
  });

  it("refuses an overlap with 409 conflict naming the period it meets", async () => {
    const host = await createHost();
    const start = dateIn(20, host.timezone);
    const first = await period(host, { startDate: start, endDate: addDays(start, 4) });
    for (const [from, to] of [
      [addDays(start, 4), addDays(start, 8)],
      [addDays(start, -3), start],
      [addDays(start, 1), addDays(start, 2)],
    ]) {
      const res = await period(host, { startDate: from, endDate: to });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: "conflict", details: { id: first.body.id } });
      expect(res.body.message).toMatch(/^Overlaps your time off from \w+day, /);
    }
    // Touching is not overlapping; another host's period does not count.
    expect((await period(host, { startDate: addDays(start, 5), endDate: addDays(start, 5) })).status).toBe(201);
    expect((await period(await createHost(), { startDate: start, endDate: start })).status).toBe(201);
    expect(await rowsOf(host)).toHaveLength(2);
  });

  it("keeps each host to their own: another host's period is not found and stays", async () => {
    const owner = await createHost();
    const other = await createHost();
    const made = await period(owner, { startDate: dateIn(3, owner.timezone), endDate: dateIn(4, owner.timezone) });
    expect((await api.delete(`/me/out-of-office/${made.body.id}`, { token: other.token })).status).toBe(404);
    expect((await api.get("/me/out-of-office", { token: other.token })).body.data).toEqual([]);
    expect(await rowsOf(owner)).toHaveLength(1);
    expect((await api.get("/me/out-of-office")).status).toBe(401);
  });

  it("takes API keys with availability scopes: read lists, write adds and deletes", async () => {
    const host = await createHost();
    const keyWith = async (scopes: string[]) => (await api.post("/me/api-keys", { name: "Time off", scopes }, { token: host.token })).body.key as string;
    const reader = await keyWith(["availability:read"]);
    const writer = await keyWith(["availability:write"]);
    const body = { startDate: dateIn(3, host.timezone), endDate: dateIn(3, host.timezone) };
    expect((await api.get("/me/out-of-office", { token: reader })).status).toBe(200);
    expect((await api.get("/me/holidays", { token: reader })).status).toBe(200);
    expect((await period({ ...host, token: reader }, body)).status).toBe(403);
    expect((await api.put("/me/holidays", { country: "FR", workingOn: [] }, { token: reader })).status).toBe(403);
    const made = await period({ ...host, token: writer }, body);
    expect(made.status).toBe(201);
    expect((await api.delete(`/me/out-of-office/${made.body.id}`, { token: writer })).status).toBe(204);
    expect((await api.get("/me/out-of-office", { token: await keyWith(["bookings:read"]) })).status).toBe(403);
  });

  it("offers no slot on a day away (needs the engine's daysOff)", async () => {
    const host = await createHost();
    const type = await createEventType(host);
    const day = dateIn(3, host.timezone);
    await openOnly(host, day);
    expect((await getSlots(host, type.slug, day)).length).toBeGreaterThan(0);
    expect((await period(host, { startDate: day, endDate: day })).status).toBe(201);
    expect(await getSlots(host, type.slug, day)).toEqual([]);
  });
});

describe("public holidays (/me/holidays)", () => {
  it("starts with none, sets a country and region, lists the next 12 months' holidays named in the host's language", async () => {
    const host = await createHost({ timezone: "Europe/Berlin" });
    expect((await api.get("/me/holidays", { token: host.token })).body).toEqual({ country: null, region: null, workingOn: [], upcoming: [] });

    const today = dateIn(0, host.timezone);
    const nextYear = Number(today.slice(0, 4)) + 1;
    const christmas = `${nextYear - (today.slice(5) < "12-25" ? 1 : 0)}-12-25`;
    const put = await api.put("/me/holidays", { country: "de", region: "by", workingOn: [christmas, christmas, "2030-01-01"] }, { token: host.token });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ country: "DE", region: "BY", workingOn: ["2030-01-01", christmas].sort() });
    const upcoming = put.body.upcoming as { date: string; name: string; working: boolean }[];
    expect(upcoming.length).toBeGreaterThan(8);
    expect(upcoming.every((h) => h.date >= today && h.date < `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`)).toBe(true);
    expect(upcoming.find((h) => h.date === christmas)).toMatchObject({ working: true });
    expect(upcoming.filter((h) => h.working)).toHaveLength(1);
    expect(upcoming.find((h) => h.date.endsWith("-10-03"))).toMatchObject({ name: "National Holiday", working: false });
    expect((await api.get("/me/holidays", { token: host.token })).body).toEqual(put.body);

    // German names for a German-speaking host.
    await (await getDb()).update(users).set({ language: "de" }).where(eq(users.id, host.id));
    const german = (await api.get("/me/holidays", { token: host.token })).body.upcoming as { date: string; name: string }[];
    expect(german.find((h) => h.date.endsWith("-10-03"))?.name).toBe("Tag der Deutschen Einheit");
  });

  it("a null country clears the region and the dates worked", async () => {
    const host = await createHost();
    await api.put("/me/holidays", { country: "US", workingOn: ["2030-07-04"] }, { token: host.token });
    const cleared = await api.put("/me/holidays", { country: null, region: "CA", workingOn: ["2030-07-04"] }, { token: host.token });
    expect(cleared.body).toEqual({ country: null, region: null, workingOn: [], upcoming: [] });
    const [row] = await (await getDb()).select().from(users).where(eq(users.id, host.id));
    expect(row).toMatchObject({ holidayCountry: null, holidayRegion: null, holidayWorkingOn: [] });
  });

  it("refuses an unknown country or region and unreal dates at their fields, and stores nothing", async () => {
    const host = await createHost();
    await api.put("/me/holidays", { country: "FR", workingOn: [] }, { token: host.token });
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ country: "XX", workingOn: [] }, "country", /No public holidays are known for the country code “XX”/],
      [{ country: "Germany", workingOn: [] }, "country", /two-letter country code/],
      [{ country: "DE", region: "ZZ", workingOn: [] }, "region", /not a region of Germany; its regions are .*BY/],
      [{ country: "DE", workingOn: ["2030-02-30"] }, "workingOn.0", /YYYY-MM-DD/],
      [{ country: "DE", workingOn: Array.from({ length: 101 }, (_, i) => addDays("2030-01-01", i)) }, "workingOn", /at most 100 dates/],
    ];
    for (const [body, path, words] of cases) {
      const res = await api.put("/me/holidays", body, { token: host.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(pathsOf(res)).toEqual([path]);
      expect(JSON.stringify(res.body.details.issues)).toMatch(words);
    }
    expect((await api.get("/me/holidays", { token: host.token })).body).toMatchObject({ country: "FR", region: null, workingOn: [] });
  });

  it("offers no slot on a public holiday unless the host works it (needs the engine's daysOff)", async () => {
    const host = await createHost({ timezone: "Europe/Berlin" });
    const type = await createEventType(host);
    const { upcoming } = (await api.put("/me/holidays", { country: "DE", workingOn: [] }, { token: host.token })).body as { upcoming: { date: string }[] };
    const holiday = upcoming.find((h) => h.date > dateIn(1, host.timezone) && h.date < dateIn(55, host.timezone));
    if (!holiday) return; // no German holiday in the next eight weeks (it happens in late summer)
    await openOnly(host, holiday.date);
    expect(await getSlots(host, type.slug, holiday.date)).toEqual([]);
    await api.put("/me/holidays", { country: "DE", workingOn: [holiday.date] }, { token: host.token });
    expect((await getSlots(host, type.slug, holiday.date)).length).toBeGreaterThan(0);
  });
});

describe("the guest pages' away line (awayNoticeOf)", () => {
  it("says nothing without time off near, and names the last day, the note and the colleague's same event", async () => {
    const host = await createHost({ timezone: "Asia/Tokyo" });
    const colleague = await createHost({ fullName: "Ana Costa" });
    const type = await createEventType(host);
    await createEventType(colleague, { slug: type.slug });
    const db = await getDb();
    const me = { id: host.id, timezone: host.timezone };
    expect(await awayNoticeOf(db, me, type.slug)).toEqual({ notice: null, deps: [], validUntil: Infinity });

    const today = dateIn(0, host.timezone);
    // Time off starting in 15 days is not mentioned yet; the page must be made again tomorrow.
    await period(host, { startDate: addDays(today, 15), endDate: addDays(today, 20) });
    const far = await awayNoticeOf(db, me, type.slug);
    expect(far.notice).toBeNull();
    expect(far.validUntil).toBe(instantOfWall(addDays(today, 1), "00:00", "Asia/Tokyo"));

    const made = await period(host, { startDate: today, endDate: addDays(today, 6), note: "At a conference", redirectUsername: colleague.username });
    const away = await awayNoticeOf(db, me, type.slug);
    expect(away.notice).toEqual({
      startDate: today,
      endDate: addDays(today, 6),
      awayNow: true,
      note: "At a conference",
      colleague: { name: "Ana Costa", href: `/${colleague.username}/${type.slug}` },
    });
    expect(away.deps).toEqual([colleague.id]);
    // Without an active event type of that slug, the colleague's page.
    expect((await awayNoticeOf(db, me, "something-else")).notice?.colleague?.href).toBe(`/${colleague.username}`);
    expect((await awayNoticeOf(db, me, null)).notice?.colleague?.href).toBe(`/${colleague.username}`);

    await api.delete(`/me/out-of-office/${made.body.id}`, { token: host.token });
    await period(host, { startDate: addDays(today, 14), endDate: addDays(today, 14) });
    expect((await awayNoticeOf(db, me, type.slug)).notice).toMatchObject({ startDate: addDays(today, 14), awayNow: false, colleague: null });
  });
});
