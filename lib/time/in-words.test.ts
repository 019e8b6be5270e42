import { describe, expect, it } from "vitest";
import { hour12InZone } from "./reader-clock";
import { dayOf, rangeOf, sentenceMoment, sentenceRange } from "./in-words";

describe("times in the reader's zone", () => {
  const start = Date.parse("2027-03-15T13:00:00Z");
  const end = Date.parse("2027-03-15T13:30:00Z");

  it("writes one instant differently for each reader, in words, on the clock of the reader's country", () => {
    expect(rangeOf(start, end, "Europe/Berlin")).toBe("Monday, March 15, 2027, 14:00 – 14:30 (Central European Time)");
    expect(rangeOf(start, end, "America/New_York")).toBe("Monday, March 15, 2027, 9:00 – 9:30 AM (Eastern Time (US & Canada))");
    expect(rangeOf(start, end, "Asia/Kolkata")).toBe("Monday, March 15, 2027, 6:30 – 7:00 PM (India Standard Time)");
    expect(dayOf(start, "Pacific/Kiritimati")).toBe("Tuesday, March 16, 2027");
  });

  it("names both halves of the day, or both days, when the range crosses them", () => {
    expect(rangeOf(Date.parse("2027-03-15T11:30:00Z"), Date.parse("2027-03-15T12:30:00Z"), "UTC", true)).toBe(
      "Monday, March 15, 2027, 11:30 AM – 12:30 PM (Coordinated Universal Time)",
    );
    expect(rangeOf(Date.parse("2027-03-15T23:30:00Z"), Date.parse("2027-03-16T00:30:00Z"), "UTC", true)).toBe(
      "Monday, March 15, 2027, 11:30 PM – Tuesday, March 16, 2027, 12:30 AM (Coordinated Universal Time)",
    );
    expect(rangeOf(Date.parse("2027-03-15T23:30:00Z"), Date.parse("2027-03-16T00:30:00Z"), "UTC")).toBe(
      "Monday, March 15, 2027, 23:30 – Tuesday, March 16, 2027, 00:30 (Coordinated Universal Time)",
    );
  });

  it("reads a 12-hour clock in the US, Canada's English provinces, Australia, India; 24-hour in Europe and in UTC", () => {
    for (const zone of ["America/Los_Angeles", "US/Eastern", "America/Indiana/Indianapolis", "America/Toronto", "Australia/Sydney", "Asia/Calcutta"]) {
      expect(hour12InZone(zone), zone).toBe(true);
    }
    for (const zone of ["Europe/Berlin", "Europe/London", "America/Sao_Paulo", "America/Montreal", "Asia/Tokyo", "UTC", "Etc/GMT+5"]) {
      expect(hour12InZone(zone), zone).toBe(false);
    }
  });

  it("writes day and month names in the guest's language, the clock still the zone's", () => {
    expect(rangeOf(start, end, "Europe/Berlin", undefined, "de")).toBe("Montag, 15. März 2027, 14:00 – 14:30 (Mitteleuropäische Zeit)");
    expect(rangeOf(start, end, "Europe/Paris", undefined, "fr")).toBe("lundi 15 mars 2027, 14:00 – 14:30 (heure d’Europe centrale)");
    expect(rangeOf(start, end, "America/New_York", undefined, "es")).toBe("lunes, 15 de marzo de 2027, 9:00 – 9:30 a.\u202fm. (hora oriental)");
    expect(dayOf(start, "America/Sao_Paulo", "pt")).toBe("segunda-feira, 15 de março de 2027");
    expect(rangeOf(Date.parse("2027-03-15T23:30:00Z"), Date.parse("2027-03-16T00:30:00Z"), "UTC", false, "de")).toBe(
      "Montag, 15. März 2027, 23:30 – Dienstag, 16. März 2027, 00:30 (Coordinated Universal Time)",
    );
  });

  it("keeps the API's English sentences as they were; other languages on their 24-hour clock", () => {
    expect(sentenceRange(start, end, "Europe/Berlin", "en")).toBe("Monday, March 15, 2027, 2:00 PM – 2:30 PM (Europe/Berlin)");
    expect(sentenceRange(start, end, "America/New_York", "de")).toBe("Montag, 15. März 2027, 09:00 – 09:30 (America/New_York)");
    expect(sentenceMoment(start, "Europe/Madrid", "es")).toBe("lunes, 15 de marzo de 2027, 14:00");
    expect(sentenceMoment(start, "Europe/Madrid", "en")).toBe("Monday, March 15, 2027, 2:00 PM");
  });
});
