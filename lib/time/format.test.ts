import { describe, expect, it } from "vitest";
import { formatCalendarDate, formatMonth, weekdayNames } from "./month-grid";
import { addDays, dateInZone, formatClock, formatClockRange, formatLongDay, formatRange, formatShortDate, formatTime, instantOfWall, offsetMinutes, zoneLongName, zoneOffsetLabel } from "./format";

// ICU puts thin and narrow no-break spaces around dashes and before AM/PM.
const plain = (s: string) => s.replace(/[\u2009\u202f]/g, " ");

describe("format", () => {
  it("reads the date of an instant in its zone", () => {
    expect(dateInZone("2027-03-15T23:30:00Z", "Europe/Berlin")).toBe("2027-03-16");
    expect(dateInZone("2027-03-15T23:30:00Z", "America/New_York")).toBe("2027-03-15");
  });
  it("formats times in the zone, 12 h or 24 h", () => {
    expect(plain(formatTime("2027-03-15T13:00:00Z", "America/New_York", { locale: "en-US" }))).toBe("9:00 AM");
    expect(formatTime("2027-03-15T13:00:00Z", "Europe/Berlin", { locale: "en-GB" })).toBe("14:00");
    expect(formatTime("2027-03-15T13:00:00Z", "Europe/Berlin", { locale: "en-US", hour12: false })).toBe("14:00");
    expect(plain(formatRange("2027-03-15T13:00:00Z", "2027-03-15T13:30:00Z", "America/New_York", { locale: "en-US" }))).toBe("Mon, Mar 15, 2027 · 9:00 – 9:30 AM");
  });
  it("reads midnight as 00:00 on a 24-hour clock, never 24:00", () => {
    expect(formatTime("2027-03-15T23:00:00Z", "Europe/Paris", { locale: "en-US", hour12: false })).toBe("00:00");
    expect(formatClock("2027-03-15T23:00:00Z", "Europe/Paris")).toBe("00:00");
  });
  it("writes a guest's slot from its UTC instants in the zone asked for", () => {
    const start = "2027-03-15T14:00:00Z";
    const end = "2027-03-15T14:30:00Z";
    const slot = (zone: string) => `${formatLongDay(start, zone, { year: true })} · ${formatClock(start, zone)}–${formatClock(end, zone)}`;
    expect(slot("Europe/Paris")).toBe("Monday, March 15, 2027 · 15:00–15:30");
    expect(slot("Asia/Tokyo")).toBe("Monday, March 15, 2027 · 23:00–23:30");
    expect(slot("Asia/Kolkata")).toBe("Monday, March 15, 2027 · 19:30–20:00");
    expect(slot("Pacific/Auckland")).toBe("Tuesday, March 16, 2027 · 03:00–03:30");
    // Across the US change to summer time (March 14, 2027): the offset of each instant, not of the day before.
    expect(formatClock("2027-03-14T06:30:00Z", "America/New_York")).toBe("01:30");
    expect(formatClock("2027-03-14T07:30:00Z", "America/New_York")).toBe("03:30");
    expect(formatLongDay(start, "America/Los_Angeles")).toBe("Monday, March 15");
    expect(formatShortDate("2027-03-15")).toBe("Mar 15");
    expect(formatShortDate("2027-12-31", { year: true })).toBe("Dec 31, 2027");
  });
  it("names offsets, half hours and DST included", () => {
    expect(zoneOffsetLabel("Asia/Kolkata")).toBe("UTC+05:30");
    expect(zoneOffsetLabel("UTC")).toBe("UTC+00:00");
    expect(zoneOffsetLabel("America/New_York", new Date("2027-07-01T12:00:00Z"))).toBe("UTC-04:00");
  });
  it("adds calendar days across months and years", () => {
    expect(addDays("2027-12-30", 3)).toBe("2028-01-02");
    expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
  });
});

describe("instantOfWall", () => {
  it("reads a wall-clock time in a zone, across DST", () => {
    expect(new Date(instantOfWall("2027-03-15", "09:00", "America/New_York")).toISOString()).toBe("2027-03-15T13:00:00.000Z");
    expect(new Date(instantOfWall("2027-01-15", "09:00", "America/New_York")).toISOString()).toBe("2027-01-15T14:00:00.000Z");
    expect(new Date(instantOfWall("2027-03-15", "09:00", "Asia/Kolkata")).toISOString()).toBe("2027-03-15T03:30:00.000Z");
    expect(offsetMinutes("Europe/Berlin", Date.parse("2027-07-01T00:00:00Z"))).toBe(120);
  });
});

describe("in the guest's language", () => {
  const start = "2027-03-16T15:00:00Z";
  const end = "2027-03-16T15:30:00Z";

  it("names days and months in the language, the clock still the guest's choice", () => {
    expect(formatLongDay(start, "Europe/Berlin", { year: true, locale: "de-DE" })).toBe("Dienstag, 16. März 2027");
    expect(formatLongDay(start, "Europe/Paris", { locale: "fr-FR" })).toBe("mardi 16 mars");
    expect(formatClockRange(start, end, "Europe/Madrid", false, "es-ES")).toBe("16:00–16:30");
    expect(formatClock(start, "America/Sao_Paulo", false, "pt-BR")).toBe("12:00");
    expect(formatCalendarDate("2027-03-16", { locale: "pt-BR" })).toBe("terça-feira, 16 de março");
    expect(formatMonth("2027-03", "de-DE")).toBe("März 2027");
    expect(weekdayNames(1, "fr-FR")[0]).toEqual({ short: "lun.", long: "lundi" });
    expect(zoneLongName("Europe/Berlin", start, "de-DE")).toBe("Mitteleuropäische Normalzeit");
  });
});
