import { describe, expect, it } from "vitest";
import { currentZoneId, filterZones, formatOffset, offsetLabel, zoneLabel, zoneName, zoneOptions } from "./zones";

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

describe("zones by the names people use", () => {
  const options = zoneOptions(undefined, winter);
  const top = (query: string) => filterZones(options, query)[0]?.zone;

  it("lists current ids, not the renamed ones browsers still report", () => {
    const zones = options.map((o) => o.zone);
    expect(zones).toContain("Asia/Kolkata");
    expect(zones).toContain("Europe/Kyiv");
    expect(zones).not.toContain("Asia/Calcutta");
    expect(zones).not.toContain("Europe/Kiev");
    expect(currentZoneId("Asia/Calcutta")).toBe("Asia/Kolkata");
    expect(currentZoneId("Europe/Kiev")).toBe("Europe/Kyiv");
    expect(currentZoneId("Europe/Berlin")).toBe("Europe/Berlin");
  });

  it("names zones as calendar apps do", () => {
    expect(zoneName("America/New_York", winter)).toBe("Eastern Time (US & Canada)");
    expect(zoneName("Asia/Calcutta", winter)).toBe("India Standard Time");
    expect(zoneName("Europe/Berlin", winter)).toBe("Central European Time");
    expect(options.find((o) => o.zone === "Asia/Ho_Chi_Minh")?.city).toBe("Ho Chi Minh");
  });

  it("names a zone in the reader's language where Intl has a name for it, in English otherwise", () => {
    expect(zoneName("Europe/Berlin", winter, "de-DE")).toBe("Mitteleuropäische Zeit");
    expect(zoneName("Asia/Calcutta", winter, "de-DE")).toBe("Indische Normalzeit");
    expect(zoneName("America/New_York", winter, "en-GB")).toBe("Eastern Time (US & Canada)");
    // No generic name in CLDR (Intl answers with an offset): the English name or the city.
    expect(zoneName("America/Argentina/Buenos_Aires", winter, "de-DE")).not.toMatch(/^GMT/);
  });

  it.each([
    ["eastern", "America/New_York"],
    ["Eastern Time (US & Canada)", "America/New_York"],
    ["pst", "America/Los_Angeles"],
    ["PT", "America/Los_Angeles"],
    ["india standard", "Asia/Kolkata"],
    ["IST", "Asia/Kolkata"],
    ["calcutta", "Asia/Kolkata"],
    ["kolkata", "Asia/Kolkata"],
    ["kiev", "Europe/Kyiv"],
    ["kyiv", "Europe/Kyiv"],
    ["new york", "America/New_York"],
    ["saigon", "Asia/Ho_Chi_Minh"],
  ])("finds %s", (query, zone) => {
    expect(top(query)).toBe(zone);
  });

  it("finds every zone an abbreviation stands for (CET: Berlin, Paris, …)", () => {
    const cet = filterZones(options, "CET").map((o) => o.zone);
    expect(cet).toEqual(expect.arrayContaining(["Europe/Berlin", "Europe/Paris", "Europe/Madrid"]));
  });
});

describe("zoneLabel: a closed picker's one line", () => {
  it("is the well-known name alone, else the name with its city, never the id", () => {
    expect(zoneLabel("America/New_York")).toBe("Eastern Time (US & Canada)");
    expect(zoneLabel("US/Eastern")).toBe("Eastern Time (US & Canada)");
    // Berlin and Paris share a name: the city tells them apart.
    expect(zoneLabel("Europe/Berlin")).toBe("Central European Time – Berlin");
    expect(zoneLabel("Europe/Paris")).toBe("Central European Time – Paris");
    expect(zoneLabel("Asia/Calcutta")).toBe("India Standard Time");
    for (const zone of ["Asia/Tokyo", "Australia/Lord_Howe", "America/Argentina/Buenos_Aires", "UTC"]) {
      expect(zoneLabel(zone)).not.toMatch(/\/|_/);
    }
  });
});
