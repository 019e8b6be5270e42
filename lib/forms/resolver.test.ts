import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkForm, errorList, formResolver, nestErrors } from "./resolver";

describe("errorList and nestErrors: react-hook-form's nested errors, flat by path", () => {
  it("finds every error, a field called `type` too, and not an error's own ref", () => {
    const nested = nestErrors({ slug: "Taken", "customQuestions.0.label": "Reserved", "customQuestions.0.type": "Unknown type", "customQuestions.root": "Too many" }, "server");
    expect(errorList({ ...nested, title: { type: "local", message: "Enter a title.", ref: { name: "title" } } })).toEqual([
      { path: "slug", message: "Taken", type: "server" },
      { path: "customQuestions.0.label", message: "Reserved", type: "server" },
      { path: "customQuestions.0.type", message: "Unknown type", type: "server" },
      { path: "customQuestions.root", message: "Too many", type: "server" },
      { path: "title", message: "Enter a title.", type: "local" },
    ]);
  });
});

describe("checkForm and formResolver: the API's schema over the body the form would send", () => {
  const schema = z.strictObject({ minutes: z.number().int().min(5), name: z.string().trim().min(1, "Must not be empty") });
  const rules = {
    schema,
    toBody: (v: { minutes: string; name: string }) => ({ minutes: Number(v.minutes), name: v.name }),
    words: ({ path, code }: { path: string; code?: string }) => (path === "minutes" && code === "too_small" ? "Enter 5 or more." : undefined),
  };

  it("says every problem at once, in plain words (the schema's own, the API's for the rest, or the page's)", async () => {
    expect(await checkForm(rules, { minutes: "2", name: " " })).toEqual({ minutes: "Enter 5 or more.", name: "Must not be empty" });
    expect(await checkForm({ ...rules, words: undefined }, { minutes: "2.5", name: "x" })).toEqual({ minutes: "Must be a whole number" });
  });

  it("places a problem at the field that shows it, and leaves one no field shows to the API", async () => {
    const fieldOf = (path: string) => (path === "name" ? "fullName" : undefined);
    expect(await checkForm({ ...rules, fieldOf }, { minutes: "2", name: "" })).toEqual({ fullName: "Must not be empty" });
  });

  it("resolves the form's values when the body is right, and nested errors when not", async () => {
    const resolve = formResolver(rules);
    const options = { fields: {}, shouldUseNativeValidation: false } as const;
    expect(await resolve({ minutes: "30", name: "Ada" }, undefined, options)).toEqual({ values: { minutes: "30", name: "Ada" }, errors: {} });
    expect(await resolve({ minutes: "3", name: "Ada" }, undefined, options)).toEqual({ values: {}, errors: { minutes: { type: "local", message: "Enter 5 or more." } } });
  });
});
