import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { SlotsQuery } from "@/lib/schemas/booking";
import { parseKept } from "./parse";

describe("parseKept: a read's path and query parsed once per distinct value", () => {
  it("answers a value seen before with the same parse, and reads it only the first time", () => {
    let reads = 0;
    const read = () => {
      reads += 1;
      return { from: "2027-03-15", to: "2027-03-21", timezone: "Europe/Berlin" };
    };
    const first = parseKept(SlotsQuery, "?from=2027-03-15&to=2027-03-21&timezone=Europe%2FBerlin", read, "query");
    const again = parseKept(SlotsQuery, "?from=2027-03-15&to=2027-03-21&timezone=Europe%2FBerlin", read, "query");
    expect(first).toEqual({ from: "2027-03-15", to: "2027-03-21", timezone: "Europe/Berlin" });
    expect(again).toBe(first);
    expect(reads).toBe(1);
  });

  it("keeps what it answers frozen, so no handler can change it for the next request", () => {
    const schema = z.object({ q: z.string() });
    const kept = parseKept(schema, "frozen?q=a", () => ({ q: "a" }), "query");
    expect(Object.isFrozen(kept)).toBe(true);
    expect(() => {
      (kept as { q: string }).q = "b";
    }).toThrow(TypeError);
    expect(parseKept(schema, "frozen?q=a", () => ({ q: "a" }), "query").q).toBe("a");
  });

  it("refuses an invalid value every time it comes, with the same 400 as parseWith", () => {
    const bad = () => ({ from: "2027-03-21", to: "2027-03-15", timezone: "Europe/Berlin" });
    const refused = expect.objectContaining({ code: "validation_error", details: { issues: [{ path: "to", message: "Must not be before from" }] } });
    for (let i = 0; i < 2; i++) {
      expect(() => parseKept(SlotsQuery, "?from=2027-03-21&to=2027-03-15&timezone=Europe%2FBerlin", bad, "query")).toThrow(AppError);
      expect(() => parseKept(SlotsQuery, "?from=2027-03-21&to=2027-03-15&timezone=Europe%2FBerlin", bad, "query")).toThrow(refused);
    }
  });

  it("parses again what it does not keep: nested values, and keys too long to keep", () => {
    const nested = z.object({ tags: z.array(z.string()) });
    let reads = 0;
    const read = () => {
      reads += 1;
      return { tags: ["a"] };
    };
    const first = parseKept(nested, "nested", read, "query");
    const second = parseKept(nested, "nested", read, "query");
    expect(second).not.toBe(first);
    expect(Object.isFrozen(first)).toBe(false);

    const flat = z.object({ q: z.string() });
    const long = "x".repeat(600);
    const readLong = () => {
      reads += 1;
      return { q: long };
    };
    expect(parseKept(flat, `?q=${long}`, readLong, "query")).not.toBe(parseKept(flat, `?q=${long}`, readLong, "query"));
    expect(reads).toBe(4);
  });

  it("keeps each schema's values apart: the same text parsed by another schema is parsed by it", () => {
    const upper = z.object({ q: z.string().transform((s) => s.toUpperCase()) });
    const plain = z.object({ q: z.string() });
    expect(parseKept(upper, "?q=a", () => ({ q: "a" }), "query")).toEqual({ q: "A" });
    expect(parseKept(plain, "?q=a", () => ({ q: "a" }), "query")).toEqual({ q: "a" });
  });
});
