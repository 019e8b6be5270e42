import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { bookingIcs, icsParam } from "./booking-ics";

const base = {
  bookingId: "bkg_test",
  sequence: 0,
  cancelled: false,
  summary: "Intro call with Ada Host",
  start: new Date("2026-12-01T08:00:00Z"),
  end: new Date("2026-12-01T08:30:00Z"),
  location: "Zoom",
  description: "",
  host: { name: "Ada Host", email: "ada@example.com" },
  guest: { name: "Grace Guest", email: "grace@example.com" },
  stamp: new Date("2026-11-20T10:00:00Z"),
};

function vevent(text: string) {
  return new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")!;
}

describe("the booking's invitation (.ics)", () => {
  it("writes absolute UTC times whatever the server's TZ (a floating time moves with the reader's zone)", () => {
    const text = bookingIcs(base);
    expect(text).toMatch(/^DTSTART:20261201T080000Z\r?$/m);
    expect(text).toMatch(/^DTEND:20261201T083000Z\r?$/m);
    expect(text).toMatch(/^DTSTAMP:20261120T100000Z\r?$/m);
    const event = new ICAL.Event(vevent(text));
    expect(event.startDate.toJSDate().toISOString()).toBe("2026-12-01T08:00:00.000Z");
  });

  it("a guest name built to inject an attendee address leaves the attendee the guest's own (RFC 6868)", () => {
    const hostile = 'Eve":MAILTO:attacker@evil.example;X-A="';
    const text = bookingIcs({ ...base, guest: { name: hostile, email: "grace@example.com" }, host: { name: 'Ada "the" Host\nNew line ^', email: "ada@example.com" } });
    const component = vevent(text);
    const attendees = component.getAllProperties("attendee");
    expect(attendees).toHaveLength(1);
    expect(String(attendees[0]!.getFirstValue()).toLowerCase()).toBe("mailto:grace@example.com");
    expect(attendees[0]!.getParameter("cn")).toBe(hostile);
    const organizer = component.getFirstProperty("organizer")!;
    expect(String(organizer.getFirstValue()).toLowerCase()).toBe("mailto:ada@example.com");
    expect(organizer.getParameter("cn")).toBe('Ada "the" Host\nNew line ^');
    // Inside the quotes only RFC 6868's escapes: a backslash-escaped quote is no escape at all.
    expect(text).not.toContain('\\"');
  });

  it("an erased guest (no address) makes an event with the organizer and no guest ATTENDEE, not an error", () => {
    const text = bookingIcs({ ...base, guest: { name: "Erased guest", email: "" } });
    const component = vevent(text);
    expect(component.getAllProperties("attendee")).toHaveLength(0);
    expect(String(component.getFirstPropertyValue("organizer")).toLowerCase()).toBe("mailto:ada@example.com");
  });

  it("encodes ^, quotes and line breaks in a parameter value", () => {
    expect(icsParam('a^b"c\nd\r\ne')).toBe("a^^b^'c^nd^ne");
    expect(icsParam("Plain Name")).toBe("Plain Name");
  });
});

describe("a series' invitation (decisions §19)", () => {
  const occurrences = [0, 7, 14].map((days, k) => ({
    bookingId: `bkg_${k + 1}`,
    sequence: 0,
    start: new Date(Date.parse("2026-12-01T08:00:00Z") + days * 86_400_000),
    end: new Date(Date.parse("2026-12-01T08:30:00Z") + days * 86_400_000),
    cancelled: false,
  }));

  it("holds one VEVENT per occurrence, each under its own UID and at its own UTC time", () => {
    const text = bookingIcs({ ...base, occurrences });
    const events = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent").map((c) => new ICAL.Event(c));
    expect(events.map((e) => e.uid)).toEqual(["bkg_1@booking.test", "bkg_2@booking.test", "bkg_3@booking.test"]);
    expect(events.map((e) => e.startDate.toJSDate().toISOString())).toEqual(["2026-12-01T08:00:00.000Z", "2026-12-08T08:00:00.000Z", "2026-12-15T08:00:00.000Z"]);
    expect(events.every((e) => e.summary === "Intro call with Ada Host")).toBe(true);
    expect(text).toMatch(/^METHOD:REQUEST\r?$/m);
  });

  it("cancelled together: one CANCEL with each occurrence's own SEQUENCE", () => {
    const text = bookingIcs({ ...base, cancelled: true, occurrences: occurrences.slice(1).map((o) => ({ ...o, sequence: 1, cancelled: true })) });
    const events = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent");
    expect(events.map((c) => c.getFirstPropertyValue("uid"))).toEqual(["bkg_2@booking.test", "bkg_3@booking.test"]);
    expect(events.map((c) => c.getFirstPropertyValue("status"))).toEqual(["CANCELLED", "CANCELLED"]);
    expect(events.map((c) => c.getFirstPropertyValue("sequence"))).toEqual([1, 1]);
    expect(text).toMatch(/^METHOD:CANCEL\r?$/m);
  });
});
