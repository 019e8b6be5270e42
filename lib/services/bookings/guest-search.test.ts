import { describe, expect, it } from "vitest";
import { containsPattern } from "./guest-search";

describe("containsPattern", () => {
  it("finds the text anywhere", () => {
    expect(containsPattern("grace")).toBe("%grace%");
  });

  it("keeps %, _ and \\ as the person's own characters", () => {
    expect(containsPattern("100%")).toBe("%100\\%%");
    expect(containsPattern("a_b")).toBe("%a\\_b%");
    expect(containsPattern("C:\\x")).toBe("%C:\\\\x%");
  });
});
