import { describe, expect, it } from "vitest";
import { keepShown, notSavedSentence, placeIssues } from "./field-errors";

describe("keepShown: while typing, a problem goes as soon as its field is right, and nothing new appears", () => {
  const shown = new Set(["title", "durationMinutes"]);
  const isShown = (key: string) => shown.has(key);

  it("keeps a shown field's problem while it is still wrong, in its current words, and drops it once right", () => {
    expect(keepShown({ title: "Enter a title.", durationMinutes: "Use fewer minutes." }, isShown)).toEqual({ title: "Enter a title.", durationMinutes: "Use fewer minutes." });
    expect(keepShown({ title: "Enter a title." }, isShown)).toEqual({ title: "Enter a title." });
  });

  it("never adds a problem while typing: new ones wait for the next submit", () => {
    expect(keepShown({ title: "Enter a title.", location: "Too long." }, isShown)).not.toHaveProperty("location");
    expect(keepShown({ title: "Enter a title." }, () => false)).toEqual({});
  });
});

describe("placeIssues: the API's issues at their fields, all at once", () => {
  it("places every issue whose field is shown, the first per field, and returns the rest", () => {
    const placed = placeIssues(
      [
        { path: "title", message: "Must not be empty" },
        { path: "durationMinutes", message: "Must be a whole number of minutes from 5 to 720" },
        { path: "title", message: "second title issue" },
        { path: "", message: "The request body is not valid JSON" },
      ],
      (path) => (path === "" ? undefined : path),
      (m) => m.toUpperCase(),
    );
    expect(placed.errors).toEqual({ title: "MUST NOT BE EMPTY", durationMinutes: "MUST BE A WHOLE NUMBER OF MINUTES FROM 5 TO 720" });
    expect(placed.unplaced).toEqual([{ path: "", message: "THE REQUEST BODY IS NOT VALID JSON" }]);
  });

  it("counts the fields in words", () => {
    expect(notSavedSentence("Your event type was not created", 1)).toBe("Your event type was not created: one field needs a change.");
    expect(notSavedSentence("Your changes were not saved", 3)).toBe("Your changes were not saved: 3 fields need a change.");
  });
});
