import { describe, expect, it } from "vitest";
import { bookingWhen, momentWhen, zoneWords } from "./when";

// Run under TZ=America/New_York too (vitest project tz-new-york): the output must not move.
describe("dashboard times", () => {
  it("are written in the zone they are given, whatever the process's zone and locale", () => {
    expect(bookingWhen("2027-03-15T08:00:00Z", "2027-03-15T08:45:00Z", "Europe/Berlin")).toMatch(/^Mon, Mar 15, 2027 · 9:00\s*–\s*9:45\sAM$/);
    expect(momentWhen("2027-03-15T23:30:00Z", "Asia/Tokyo")).toMatch(/^Tue, Mar 16, 2027 · 8:30\sAM$/);
  });

  it("name zones as people do", () => {
    expect(zoneWords("America/New_York")).toBe("Eastern Time (US & Canada)");
    expect(zoneWords("Europe/Berlin")).toBe("Central European Time");
    expect(zoneWords("Asia/Calcutta")).toBe("India Standard Time");
  });
});
