import { createServer as createHttpServer } from "node:http";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { readIcs } from "@/tests/support/ics";
import { findRadicale, startRadicale, type Radicale } from "@/tests/support/radicale";
import { caldavClient, etagDiff, readSyncState, verifyCalDavCredentials } from ".";
import { CalendarError, type CalendarEvent } from "../types";

// provider_c against a real CalDAV server (Radicale). Without Radicale the suite is skipped
// locally, and fails in CI, where it must run.
const installed = findRadicale() !== undefined;
const skip = !installed && process.env.CI !== "true";
if (skip) console.warn("[caldav] Radicale is not installed (Debian package `radicale`): CalDAV client tests skipped (they are required when CI=true)");

const utc = (iso: string) => Date.parse(iso);
const ics = (...lines: string[]) => ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", ...lines, "END:VCALENDAR", ""].join("\r\n");
const vevent = (...lines: string[]) => ["BEGIN:VEVENT", "DTSTAMP:20300101T000000Z", ...lines, "END:VEVENT"];

/** The failure a promise ends with, which must be a CalendarError. */
async function failureOf(promise: Promise<unknown>): Promise<CalendarError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CalendarError);
  return error as CalendarError;
}

/** Every request the CalDAV client sends, as `METHOD kind` (kind: the REPORT's root element), counted at fetch. */
function countRequests(answer?: (method: string, body: string) => Response | undefined) {
  const sent: string[] = [];
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? init.body : "";
    const kind = /<(?:\w+:)?(sync-collection|calendar-multiget|calendar-query|propfind)\b/.exec(body)?.[1];
    sent.push(kind ? `${method} ${kind}` : method);
    return answer?.(method, body) ?? real(input, init);
  });
  return sent;
}

describe("CalDAV sync state", () => {
  it("reads only the states it wrote; an ETag listing's difference is the objects new, changed and gone", () => {
    expect(readSyncState(null)).toBeUndefined();
    expect(readSyncState("not json")).toBeUndefined();
    expect(readSyncState(JSON.stringify({ mode: "sync" }))).toBeUndefined();
    expect(readSyncState(JSON.stringify({ mode: "sync", token: "t1" }))).toEqual({ mode: "sync", token: "t1" });
    expect(readSyncState(JSON.stringify({ mode: "etag", etags: { a: "1" } }))).toEqual({ mode: "etag", etags: { a: "1" } });
    expect(etagDiff({ a: "1", b: "1", c: "1" }, { a: "1", b: "2", d: "1" })).toEqual({ changed: ["b", "d"], removed: ["c"] });
  });
});

describe.skipIf(skip)("CalDAV client (tsdav + ical.js) against Radicale", () => {
  let server: Radicale;
  const login = () => ({ username: server.username, password: server.password, serverUrl: server.url });

  beforeAll(async () => {
    const started = await startRadicale();
    if (!started) throw new Error("Radicale could not be started");
    server = started;
    await server.createCalendar("work", "Work");
    await server.createCalendar("tasks", "Reminders", ["VTODO"]);
    await server.createCalendar("personal", "Personal");
  });

  afterAll(async () => {
    await server?.close();
  });

  it("lists the event calendars (not the VTODO-only one): URL as id, display name, the first one primary", async () => {
    const calendars = await caldavClient(login()).listCalendars();
    expect(calendars.map((c) => c.name).sort()).toEqual(["Personal", "Work"]);
    expect(calendars.find((c) => c.name === "Work")).toMatchObject({ externalId: server.calendarUrl("work"), writable: true });
    expect(calendars.find((c) => c.name === "Personal")).toMatchObject({ externalId: server.calendarUrl("personal"), writable: true });
    expect(calendars.filter((c) => c.isPrimary)).toEqual([calendars[0]]);
    expect(await verifyCalDavCredentials(login())).toEqual(calendars);
  });

  it("reads busy time: plain, weekly with EXDATE and an override across DST, all-day in the host's zone; free and cancelled ignored", async () => {
    const calendarUrl = await server.createCalendar("busy", "Busy");
    await server.putEvent("busy", "plain.ics", ics(...vevent("UID:plain", "DTSTART:20300304T100000Z", "DTEND:20300304T110000Z")));
    // Fridays 09:00 Berlin from 1 March; Berlin moves to summer time on 31 March. The 15th is
    // excluded, the 8th is moved to 14:00. No VTIMEZONE: the TZID is read as the IANA name.
    await server.putEvent(
      "busy",
      "weekly.ics",
      ics(
        ...vevent("UID:weekly", "DTSTART;TZID=Europe/Berlin:20300301T090000", "DTEND;TZID=Europe/Berlin:20300301T100000", "RRULE:FREQ=WEEKLY;COUNT=6", "EXDATE;TZID=Europe/Berlin:20300315T090000"),
        ...vevent("UID:weekly", "RECURRENCE-ID;TZID=Europe/Berlin:20300308T090000", "DTSTART;TZID=Europe/Berlin:20300308T140000", "DTEND;TZID=Europe/Berlin:20300308T150000"),
      ),
    );
    // 10 March 2030 is the day New York moves to summer time: a 23-hour day.
    await server.putEvent("busy", "allday.ics", ics(...vevent("UID:allday", "DTSTART;VALUE=DATE:20300310", "DTEND;VALUE=DATE:20300311")));
    await server.putEvent("busy", "floating.ics", ics(...vevent("UID:floating", "DTSTART:20300320T080000", "DTEND:20300320T083000")));
    // A zone defined by the object's own VTIMEZONE (a name no IANA database knows).
    await server.putEvent(
      "busy",
      "vtimezone.ics",
      ics(
        "BEGIN:VTIMEZONE",
        "TZID:Custom Standard Time",
        "BEGIN:STANDARD",
        "DTSTART:19700101T000000",
        "TZOFFSETFROM:+0530",
        "TZOFFSETTO:+0530",
        "END:STANDARD",
        "END:VTIMEZONE",
        ...vevent("UID:custom-zone", "DTSTART;TZID=Custom Standard Time:20300321T120000", "DTEND;TZID=Custom Standard Time:20300321T130000"),
      ),
    );
    await server.putEvent("busy", "free.ics", ics(...vevent("UID:free", "DTSTART:20300305T100000Z", "DTEND:20300305T110000Z", "TRANSP:TRANSPARENT")));
    await server.putEvent("busy", "cancelled.ics", ics(...vevent("UID:cancelled", "DTSTART:20300306T100000Z", "DTEND:20300306T110000Z", "STATUS:CANCELLED")));
    await server.putEvent("busy", "outside.ics", ics(...vevent("UID:outside", "DTSTART:20300501T100000Z", "DTEND:20300501T110000Z")));

    const client = caldavClient(login());
    const range = { from: utc("2030-03-01T00:00:00Z"), to: utc("2030-04-10T00:00:00Z"), timeZone: "America/New_York" };
    const busy = await client.busy([calendarUrl], range);
    const got = (busy.get(calendarUrl) ?? []).map((b) => [b.eventId, new Date(b.start).toISOString(), new Date(b.end).toISOString()]);
    expect(got).toEqual([
      ["weekly", "2030-03-01T08:00:00.000Z", "2030-03-01T09:00:00.000Z"],
      ["plain", "2030-03-04T10:00:00.000Z", "2030-03-04T11:00:00.000Z"],
      ["weekly", "2030-03-08T13:00:00.000Z", "2030-03-08T14:00:00.000Z"], // the override
      ["allday", "2030-03-10T05:00:00.000Z", "2030-03-11T04:00:00.000Z"],
      ["floating", "2030-03-20T12:00:00.000Z", "2030-03-20T12:30:00.000Z"], // 08:00 New York (EDT)
      ["custom-zone", "2030-03-21T06:30:00.000Z", "2030-03-21T07:30:00.000Z"],
      ["weekly", "2030-03-22T08:00:00.000Z", "2030-03-22T09:00:00.000Z"],
      ["weekly", "2030-03-29T08:00:00.000Z", "2030-03-29T09:00:00.000Z"],
      ["weekly", "2030-04-05T07:00:00.000Z", "2030-04-05T08:00:00.000Z"], // summer time in Berlin
    ]);

    // The range is half-open and cuts exactly: only what overlaps [from, to).
    const narrow = await client.busy([calendarUrl], { from: utc("2030-03-04T11:00:00Z"), to: utc("2030-03-08T13:00:01Z"), timeZone: "UTC" });
    expect(narrow.get(calendarUrl)?.map((b) => b.eventId)).toEqual(["weekly"]);

    // A calendar that does not exist has no answer; the others still do.
    const missing = server.calendarUrl("no-such-calendar");
    const both = await client.busy([missing, calendarUrl], { from: utc("2030-03-04T00:00:00Z"), to: utc("2030-03-05T00:00:00Z"), timeZone: "UTC" });
    expect([...both.keys()]).toEqual([calendarUrl]);
  });

  describe("incremental reads (RFC 6578 sync-collection)", () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });
    const range = { from: utc("2030-06-01T00:00:00Z"), to: utc("2030-07-01T00:00:00Z"), timeZone: "UTC" };
    const starts = (ranges: { start: number }[] | undefined) => (ranges ?? []).map((r) => new Date(r.start).toISOString().slice(0, 16));
    const daily = (...extra: string[][]) =>
      ics(...vevent("UID:series", "DTSTART:20300603T090000Z", "DTEND:20300603T100000Z", "RRULE:FREQ=DAILY;COUNT=4", ...extra.slice(0, 1).flat()), ...extra.slice(1).flat());

    it("a full read names each object by its URL; an unchanged calendar then costs one REPORT and no object fetch", async () => {
      const calendarUrl = await server.createCalendar("sync-quiet", "Quiet");
      const plainUrl = await server.putEvent("sync-quiet", "plain.ics", ics(...vevent("UID:plain", "DTSTART:20300602T100000Z", "DTEND:20300602T110000Z")));
      await server.putEvent("sync-quiet", "series.ics", daily());
      const client = caldavClient(login());
      const sent = countRequests();
      const full = await client.changes(calendarUrl, { ...range, state: null });
      expect(full.full).toBe(true);
      expect(readSyncState(full.state)?.mode).toBe("sync");
      expect(starts(full.upserts.get(plainUrl))).toEqual(["2030-06-02T10:00"]);
      expect(starts(full.upserts.get(`${calendarUrl}series.ics`))).toEqual(["2030-06-03T09:00", "2030-06-04T09:00", "2030-06-05T09:00", "2030-06-06T09:00"]);
      expect(sent.filter((r) => r.startsWith("REPORT"))).toEqual(["REPORT sync-collection", "REPORT calendar-query"]);

      sent.length = 0;
      const quiet = await client.changes(calendarUrl, { ...range, state: full.state });
      expect(quiet).toMatchObject({ full: false, removed: [] });
      expect(quiet.upserts.size).toBe(0);
      expect(sent).toEqual(["REPORT sync-collection"]);
    });

    it("a series edited on the server (one occurrence moved, one deleted) and an object removed show up in one incremental read", async () => {
      const calendarUrl = await server.createCalendar("sync-edits", "Edits");
      await server.putEvent("sync-edits", "series.ics", daily());
      const goneUrl = await server.putEvent("sync-edits", "gone.ics", ics(...vevent("UID:gone", "DTSTART:20300610T100000Z", "DTEND:20300610T110000Z")));
      const client = caldavClient(login());
      const full = await client.changes(calendarUrl, { ...range, state: null });

      // The 4th moved to 15:00 (RECURRENCE-ID override), the 5th deleted (EXDATE); gone.ics deleted.
      await server.putEvent(
        "sync-edits",
        "series.ics",
        daily(["EXDATE:20300605T090000Z"], vevent("UID:series", "RECURRENCE-ID:20300604T090000Z", "DTSTART:20300604T150000Z", "DTEND:20300604T160000Z")),
      );
      await fetch(goneUrl, { method: "DELETE", headers: { authorization: `Basic ${Buffer.from(`${server.username}:${server.password}`).toString("base64")}` } });

      const sent = countRequests();
      const next = await client.changes(calendarUrl, { ...range, state: full.state });
      expect(next.full).toBe(false);
      expect(starts(next.upserts.get(`${calendarUrl}series.ics`))).toEqual(["2030-06-03T09:00", "2030-06-04T15:00", "2030-06-06T09:00"]);
      expect(next.removed).toEqual([goneUrl]);
      expect(sent).toEqual(["REPORT sync-collection", "REPORT calendar-multiget"]);
      expect(next.state).not.toBe(full.state);
    });

    it("a token the server does not know leads to a full read", async () => {
      const calendarUrl = await server.createCalendar("sync-spent", "Spent");
      await server.putEvent("sync-spent", "plain.ics", ics(...vevent("UID:plain", "DTSTART:20300602T100000Z", "DTEND:20300602T110000Z")));
      const client = caldavClient(login());
      const full = await client.changes(calendarUrl, { ...range, state: null });
      const known = readSyncState(full.state);
      expect(known?.mode).toBe("sync");
      const forged = JSON.stringify({ mode: "sync", token: `${(known as { token: string }).token}-forged` });
      const again = await client.changes(calendarUrl, { ...range, state: forged });
      expect(again.full).toBe(true);
      expect(starts(again.upserts.get(`${calendarUrl}plain.ics`))).toEqual(["2030-06-02T10:00"]);
      expect(readSyncState(again.state)?.mode).toBe("sync");
    });

    it("a server without sync-collection is read by ETags: unchanged costs one PROPFIND, a change fetches only that object", async () => {
      const calendarUrl = await server.createCalendar("sync-etag", "ETags");
      await server.putEvent("sync-etag", "a.ics", ics(...vevent("UID:a", "DTSTART:20300602T100000Z", "DTEND:20300602T110000Z")));
      await server.putEvent("sync-etag", "b.ics", ics(...vevent("UID:b", "DTSTART:20300603T100000Z", "DTEND:20300603T110000Z")));
      const client = caldavClient(login());
      // A server that does not implement the REPORT answers 501.
      const sent = countRequests((method, body) => (method === "REPORT" && body.includes("sync-collection") ? new Response("Not Implemented", { status: 501 }) : undefined));
      const full = await client.changes(calendarUrl, { ...range, state: null });
      expect(full.full).toBe(true);
      expect(readSyncState(full.state)?.mode).toBe("etag");
      expect(full.upserts.size).toBe(2);

      sent.length = 0;
      const quiet = await client.changes(calendarUrl, { ...range, state: full.state });
      expect(quiet.upserts.size + quiet.removed.length).toBe(0);
      expect(sent).toEqual(["PROPFIND propfind"]);

      await server.putEvent("sync-etag", "b.ics", ics(...vevent("UID:b", "DTSTART:20300603T120000Z", "DTEND:20300603T130000Z")));
      sent.length = 0;
      const moved = await client.changes(calendarUrl, { ...range, state: quiet.state });
      expect([...moved.upserts.keys()]).toEqual([`${calendarUrl}b.ics`]);
      expect(starts(moved.upserts.get(`${calendarUrl}b.ics`))).toEqual(["2030-06-03T12:00"]);
      expect(sent).toEqual(["PROPFIND propfind", "REPORT calendar-multiget"]);
    });
  });

  it("creates an event idempotently, moves it, deletes it (twice)", async () => {
    const calendarUrl = await server.createCalendar("writes", "Writes");
    const client = caldavClient(login());
    const event: CalendarEvent = {
      uid: "bk_01HZ/x@booking.test",
      title: "Intro call with Ada",
      description: "Booked online",
      location: "https://meet.example/abc",
      start: utc("2030-06-03T09:00:00Z"),
      end: utc("2030-06-03T09:30:00Z"),
      timeZone: "Europe/Berlin",
      attendees: [{ name: "Ada Lovelace", email: "ada@example.com" }],
    };
    const day = { from: utc("2030-06-03T00:00:00Z"), to: utc("2030-06-04T00:00:00Z"), timeZone: "UTC" };
    const authorization = `Basic ${Buffer.from(`${server.username}:${server.password}`).toString("base64")}`;
    const get = (url: string) => fetch(url, { headers: { authorization } });

    const { eventId } = await client.createEvent(calendarUrl, event);
    expect(eventId.startsWith(calendarUrl)).toBe(true);
    expect(eventId).toMatch(/\.ics$/);
    const stored = await get(eventId);
    expect(stored.status).toBe(200);
    expect(readIcs(await stored.text())).toMatchObject({
      uid: event.uid,
      summary: event.title,
      start: "2030-06-03T09:00:00Z",
      end: "2030-06-03T09:30:00Z",
      attendees: ["mailto:ada@example.com"],
    });

    const again = await client.createEvent(calendarUrl, { ...event, title: "Intro call (again)" });
    expect(again.eventId).toBe(eventId);
    const listing = await fetch(calendarUrl, { method: "PROPFIND", headers: { authorization, depth: "1" } });
    expect((await listing.text()).match(/\.ics<\/href>/g)).toHaveLength(1);
    expect((await client.busy([calendarUrl], day)).get(calendarUrl)).toEqual([{ start: event.start, end: event.end, eventId: event.uid }]);

    await client.updateEvent(calendarUrl, eventId, { ...event, start: utc("2030-06-03T14:00:00Z"), end: utc("2030-06-03T15:00:00Z") });
    expect((await client.busy([calendarUrl], day)).get(calendarUrl)).toEqual([
      { start: utc("2030-06-03T14:00:00Z"), end: utc("2030-06-03T15:00:00Z"), eventId: event.uid },
    ]);

    await client.deleteEvent(calendarUrl, eventId);
    expect((await get(eventId)).status).toBe(404);
    expect((await client.busy([calendarUrl], day)).get(calendarUrl)).toEqual([]);
    await expect(client.deleteEvent(calendarUrl, eventId)).resolves.toBeUndefined();

    // Writing into a calendar that is gone, or to another server with this login, is refused.
    expect((await failureOf(client.createEvent(server.calendarUrl("gone"), event))).kind).toBe("not_found");
    expect((await failureOf(client.updateEvent(calendarUrl, "https://elsewhere.example/x.ics", event))).kind).toBe("rejected");
  });

  it("a wrong password is 'auth', and the message never holds a password", async () => {
    const wrong = { ...login(), password: "not-the-password" };
    const listed = await failureOf(verifyCalDavCredentials(wrong));
    expect(listed.kind).toBe("auth");
    expect(listed.status).toBe(401);
    const busy = await failureOf(caldavClient(wrong).busy([server.calendarUrl("work")], { from: 0, to: 1_000, timeZone: "UTC" }));
    expect(busy.kind).toBe("auth");
    for (const e of [listed, busy]) {
      expect(e.message).not.toContain(wrong.password);
      expect(e.message).not.toContain(server.password);
    }
  });

  it("Radicale stopped is 'unavailable'; started again, the same client works", async () => {
    const client = caldavClient(login());
    await client.listCalendars(); // discovery done before the outage
    await server.stop();
    try {
      expect((await failureOf(verifyCalDavCredentials(login()))).kind).toBe("unavailable");
      expect((await failureOf(client.busy([server.calendarUrl("work")], { from: 0, to: 1_000, timeZone: "UTC" }))).kind).toBe("unavailable");
    } finally {
      await server.start();
    }
    expect((await client.listCalendars()).map((c) => c.name)).toContain("Work");
  });
});

describe("CalDAV client against servers that misbehave", () => {
  it("a server that accepts connections but never answers is 'unavailable' within the timeout", async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
    try {
      const credentials = { username: "alice", password: "secret-password", serverUrl: url };
      let began = Date.now();
      const listed = await failureOf(verifyCalDavCredentials(credentials, { timeoutMs: 500 }));
      const listedMs = Date.now() - began;
      expect(listed.kind).toBe("unavailable");
      expect(listed.message).toMatch(/500 ms/);
      // Discovery tries several URLs; the first timeout ends the whole call.
      expect(listedMs).toBeGreaterThanOrEqual(450);
      expect(listedMs).toBeLessThan(1_500);

      began = Date.now();
      const busy = await failureOf(caldavClient(credentials, { timeoutMs: 500 }).busy([`${url}alice/work/`], { from: 0, to: 1_000, timeZone: "UTC" }));
      expect(busy.kind).toBe("unavailable");
      expect(Date.now() - began).toBeLessThan(1_500);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("a calendar without a display name is named by its path; one without write privilege is read-only", async () => {
    // Radicale always names its calendars and grants its owner everything: a minimal CalDAV server.
    const response = (href: string, props: string) =>
      `<d:response><d:href>${href}</d:href><d:propstat><d:prop>${props}</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
    const calendar = "<d:resourcetype><d:collection/><c:calendar/></d:resourcetype>";
    const privileges = (...names: string[]) => `<d:current-user-privilege-set>${names.map((n) => `<d:privilege><d:${n}/></d:privilege>`).join("")}</d:current-user-privilege-set>`;
    const answers: Record<string, string> = {
      "/": response("/", "<d:current-user-principal><d:href>/principal/</d:href></d:current-user-principal>"),
      "/principal/": response("/principal/", "<c:calendar-home-set><d:href>/home/</d:href></c:calendar-home-set>"),
      "/home/": [
        response("/home/", "<d:resourcetype><d:collection/></d:resourcetype>"),
        response("/home/us%20holidays/", calendar + privileges("read")),
        response("/home/team/", `${calendar}<d:displayname>Team</d:displayname>${privileges("read", "write-content", "bind")}`),
      ].join(""),
    };
    const authorizations = new Set<string | undefined>();
    const http = createHttpServer((req, res) => {
      req.resume();
      authorizations.add(req.headers.authorization);
      const body = req.method === "PROPFIND" ? answers[req.url ?? ""] : undefined;
      if (body === undefined) return res.writeHead(404).end();
      res.writeHead(207, { "content-type": "application/xml; charset=utf-8" });
      res.end(`<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">${body}</d:multistatus>`);
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/`;
    try {
      const calendars = await verifyCalDavCredentials({ username: "alice", password: "pw", serverUrl: url });
      expect(calendars).toEqual([
        { externalId: `${url}home/us%20holidays/`, name: "us holidays", isPrimary: true, writable: false },
        { externalId: `${url}home/team/`, name: "Team", isPrimary: false, writable: true },
      ]);
      expect([...authorizations]).toEqual([`Basic ${Buffer.from("alice:pw").toString("base64")}`]);
    } finally {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });

  it("429 is 'rate_limited' with Retry-After, 5xx 'unavailable', a CalDAV precondition 403 'rejected'", async () => {
    let answer: { status: number; headers?: Record<string, string>; body?: string } = { status: 429 };
    const http = createHttpServer((req, res) => {
      req.resume();
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? "");
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/`;
    const client = caldavClient({ username: "alice", password: "secret-password", serverUrl: url }, { timeoutMs: 2_000 });
    const event: CalendarEvent = { uid: "u1", title: "t", description: "", location: "", start: 0, end: 60_000, timeZone: "UTC", attendees: [] };
    try {
      answer = { status: 429, headers: { "retry-after": "7" } };
      const limited = await failureOf(client.createEvent(`${url}cal/`, event));
      expect(limited).toMatchObject({ kind: "rate_limited", status: 429, retryAfterMs: 7_000 });

      answer = { status: 503 };
      expect(await failureOf(client.createEvent(`${url}cal/`, event))).toMatchObject({ kind: "unavailable", status: 503 });

      answer = {
        status: 403,
        headers: { "content-type": "application/xml" },
        body: '<?xml version="1.0"?><D:error xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><C:no-uid-conflict/></D:error>',
      };
      const refused = await failureOf(client.createEvent(`${url}cal/`, event));
      expect(refused).toMatchObject({ kind: "rejected", status: 403 });
      expect(refused.message).toContain("no-uid-conflict");

      answer = { status: 403 };
      expect(await failureOf(client.createEvent(`${url}cal/`, event))).toMatchObject({ kind: "auth", status: 403 });

      answer = { status: 400 };
      expect(await failureOf(client.createEvent(`${url}cal/`, event))).toMatchObject({ kind: "rejected", status: 400 });
    } finally {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});
