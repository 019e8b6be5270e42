import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { GET as feed } from "@/app/feeds/[file]/route";
import { api } from "../support/api";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost } from "../support/factories";
import { readIcs } from "../support/ics";
import { configure } from "../support/jobs";
import { getConfig } from "@/lib/config";

withTestDatabase();

async function fetchFeed(url: string, headers: Record<string, string> = {}) {
  const file = new URL(url).pathname.split("/").pop()!;
  return feed(new Request(url, { headers }), { params: Promise.resolve({ file }) });
}

describe("the host's calendar feed", () => {
  it("serves upcoming bookings as iCalendar with stable UIDs, cancelled ones as CANCELLED, with ETag and 304", async () => {
    const host = await createHost({ timezone: "Europe/Berlin", fullName: "Ada Feed" });
    const et = await createEventType(host, { title: "Intro call", location: "Zoom" });
    const date = dateIn(4, host.timezone);
    await openOnly(host, date);
    const slots = await getSlots(host, et.slug, date);
    const kept = await book(host, et.slug, slots[0]!.startTime, { guestName: "Grace Guest" });
    const dropped = await book(host, et.slug, slots[2]!.startTime, { guestName: "Alan Guest" });
    await api.post(`/me/bookings/${dropped.body.id}/cancel`, { reason: "Ill" }, { token: host.token });

    const created = await api.post("/me/calendar-feed", undefined, { token: host.token });
    expect(created.status).toBe(201);
    expect(created.body.url).toMatch(/^http:\/\/booking\.test\/feeds\/[A-Za-z0-9_-]{43}\.ics$/);

    const res = await fetchFeed(created.body.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const etag = res.headers.get("etag")!;
    const text = await res.text();
    // Absolute times: a floating DTSTART (no Z, no TZID) is read in each reader's own zone, and
    // its digits followed the server's TZ (a 09:00 Berlin booking showed at 08:00).
    const stamps = text.match(/^(DTSTART|DTEND|DTSTAMP|CREATED|LAST-MODIFIED)[;:].*$/gm)!;
    expect(stamps.length).toBeGreaterThanOrEqual(10);
    for (const line of stamps) expect(line.trim()).toMatch(/^[A-Z-]+:\d{8}T\d{6}Z$/);
    const calendar = new ICAL.Component(ICAL.parse(text));
    const events = calendar.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    expect(events.map((e) => e.uid)).toEqual([`${kept.body.id}@booking.test`, `${dropped.body.id}@booking.test`]);
    expect(events[0]!.summary).toBe("Intro call with Grace Guest");
    expect(events[0]!.location).toBe("Zoom");
    expect(events[0]!.startDate.toJSDate().toISOString()).toBe(new Date(slots[0]!.startTime).toISOString());
    expect(events[0]!.endDate.toJSDate().toISOString()).toBe(new Date(slots[0]!.endTime).toISOString());
    expect(events[0]!.component.getFirstPropertyValue("status")).toBe("CONFIRMED");
    expect(events[1]!.component.getFirstPropertyValue("status")).toBe("CANCELLED");

    const again = await fetchFeed(created.body.url, { "if-none-match": etag });
    expect(again.status).toBe(304);
    // A change makes a new ETag.
    await api.post(`/me/bookings/${kept.body.id}/cancel`, {}, { token: host.token });
    const changed = await fetchFeed(created.body.url, { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  it("gives a booking the same UID as its emailed invitation and the guest's .ics, with a port in APP_URL", async () => {
    configure({ appUrl: "http://booking.test:8443" });
    expect(getConfig().appUrl).toBe("http://booking.test:8443");
    const host = await createHost({ timezone: "America/New_York" });
    const et = await createEventType(host);
    const date = dateIn(5, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    const made = await book(host, et.slug, slot!.startTime);
    const token = (made.body.cancelUrl as string).split("/").pop();
    const guestIcs = readIcs((await api.get(`/public/bookings/${token}.ics`)).body);

    const url = (await api.post("/me/calendar-feed", undefined, { token: host.token })).body.url as string;
    const events = new ICAL.Component(ICAL.parse(await (await fetchFeed(url)).text())).getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    expect(events.map((e) => e.uid)).toEqual([guestIcs.uid]);
    expect(guestIcs.uid).toBe(`${made.body.id}@booking.test`);
    expect(events[0]!.startDate.toJSDate().toISOString().replace(".000Z", "Z")).toBe(guestIcs.start);
  });

  it("a new URL replaces the old one; an unknown token is 404; another host's feed holds only theirs", async () => {
    const host = await createHost();
    const first = (await api.post("/me/calendar-feed", undefined, { token: host.token })).body.url;
    const second = (await api.post("/me/calendar-feed", undefined, { token: host.token })).body.url;
    expect(second).not.toBe(first);
    expect((await fetchFeed(first)).status).toBe(404);
    expect((await fetchFeed(second)).status).toBe(200);
    expect((await fetchFeed("http://booking.test/feeds/not-a-token.ics")).status).toBe(404);
    expect((await fetchFeed("http://booking.test/feeds/../../etc/passwd")).status).toBe(404);
    expect((await api.post("/me/calendar-feed")).status).toBe(401);
  });
});
