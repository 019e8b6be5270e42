import { describe, expect, it } from "vitest";
import { filterZones, formatOffset, offsetLabel, zoneOptions } from "./time-zones";

const winter = new Date("2027-01-15T12:00:00Z");
const summer = new Date("2027-07-15T12:00:00Z");

describe("offsets", () => {
  it("follows daylight saving time and half-hour zones", () => {
    expect(offsetLabel("Europe/Berlin", winter)).toBe("UTC+01:00");
    expect(offsetLabel("Europe/Berlin", summer)).toBe("UTC+02:00");
    expect(offsetLabel("America/New_York", winter)).toBe("UTC-05:00");
    expect(offsetLabel("Asia/Kolkata", winter)).toBe("UTC+05:30");
    expect(offsetLabel("UTC", winter)).toBe("UTC+00:00");
  });

  it("is empty for a name the runtime does not know", () => {
    expect(offsetLabel("Mars/Olympus_Mons", winter)).toBe("");
  });

  it("formats negative fractional offsets", () => {
    expect(formatOffset(-570)).toBe("UTC-09:30");
  });
});

describe("zoneOptions", () => {
  it("starts with UTC and lists each zone once", () => {
    const options = zoneOptions(undefined, winter);
    expect(options[0]!.zone).toBe("UTC");
    expect(new Set(options.map((o) => o.zone)).size).toBe(options.length);
    expect(options.find((o) => o.zone === "Europe/Berlin")?.offset).toBe("UTC+01:00");
  });

  it("keeps a current value the list lacks (an alias) instead of dropping it", () => {
    const options = zoneOptions("Asia/Calcutta", winter);
    expect(options.filter((o) => o.zone === "Asia/Calcutta")).toHaveLength(1);
  });
});

describe("filterZones", () => {
  const options = zoneOptions(undefined, winter);
  const zones = (q: string) => filterZones(options, q).map((o) => o.zone);

  it("finds a city by name, with spaces for underscores, case-insensitively", () => {
    expect(zones("berlin")).toEqual(["Europe/Berlin"]);
    expect(zones("New York")).toContain("America/New_York");
  });

  it("finds zones by offset, short or long", () => {
    // Runtimes name it Asia/Kolkata or, ICU's canonical spelling, Asia/Calcutta.
    expect(zones("+05:30").some((z) => /^Asia\/(Kolkata|Calcutta)$/.test(z))).toBe(true);
    expect(zones("utc+1")).toContain("Europe/Berlin");
  });

  it("ranks cities that start with the query first", () => {
    expect(zones("paris")[0]).toBe("Europe/Paris");
    expect(zones("london")[0]).toBe("Europe/London");
    expect(zones("europe/ber")[0]).toBe("Europe/Berlin");
  });

  it("returns everything for an empty query and nothing for nonsense", () => {
    expect(zones("  ")).toHaveLength(options.length);
    expect(zones("zzzz")).toEqual([]);
  });
});
