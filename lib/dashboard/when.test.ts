import { describe, expect, it } from "vitest";
import { bookingWhen, momentWhen, zoneWords } from "./when";

// Run under TZ=America/New_York too (vitest project tz-new-york): the output must not move.
describe("dashboard times", () => {
  it("are written in the zone they are given, whatever the process's zone and locale", () => {
    expect(bookingWhen("2027-03-15T08:00:00Z", "2027-03-15T08:45:00Z", "Europe/Berlin")).toBe("Mon, Mar 15, 2027 · 9:00 – 9:45 AM");
    expect(momentWhen("2027-03-15T23:30:00Z", "Asia/Tokyo")).toBe("Tue, Mar 16, 2027 · 8:30 AM");
  });

  it("are written with plain spaces, as Chromium writes them (Node's ICU has thin and narrow ones)", () => {
    expect(bookingWhen("2027-03-15T11:30:00Z", "2027-03-15T12:30:00Z", "UTC")).toBe("Mon, Mar 15, 2027 · 11:30 AM – 12:30 PM");
    expect(bookingWhen("2027-03-15T11:30:00Z", "2027-03-15T12:30:00Z", "UTC")).not.toMatch(/[\u00a0\u2009\u202f]/);
  });

  it("name zones as people do", () => {
    expect(zoneWords("America/New_York")).toBe("Eastern Time (US & Canada)");
    expect(zoneWords("Europe/Berlin")).toBe("Central European Time");
    expect(zoneWords("Asia/Calcutta")).toBe("India Standard Time");
  });
});
