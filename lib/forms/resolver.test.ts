import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkForm, errorList, formResolver, lazyRules, nestErrors, withHeld } from "./resolver";

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

describe("lazyRules: rules loaded when a form first needs them (an account page's)", () => {
  const schema = z.strictObject({ name: z.string().trim().min(1, "Must not be empty") });
  const options = { fields: {}, shouldUseNativeValidation: false } as const;

  it("loads once, and checks as the rules themselves do", async () => {
    let loads = 0;
    const rules = lazyRules(async () => {
      loads += 1;
      return { schema };
    });
    expect(await checkForm(rules, { name: " " })).toEqual({ name: "Must not be empty" });
    const resolve = formResolver(rules);
    expect(await resolve({ name: "" }, undefined, options)).toEqual({ values: {}, errors: { name: { type: "local", message: "Must not be empty" } } });
    expect(await resolve({ name: "Ada" }, undefined, options)).toEqual({ values: { name: "Ada" }, errors: {} });
    expect(loads).toBe(1);
  });

  it("lets the form through to the API while they cannot be loaded (offline), and loads them when asked again", async () => {
    let online = false;
    const rules = lazyRules(async () => {
      if (!online) throw new TypeError("Failed to load chunk");
      return { schema };
    });
    const resolve = formResolver(rules);
    expect(await resolve({ name: "" }, undefined, options)).toEqual({ values: { name: "" }, errors: {} });
    online = true;
    expect(await resolve({ name: "" }, undefined, options)).toEqual({ values: {}, errors: { name: { type: "local", message: "Must not be empty" } } });
  });
});

describe("withHeld: a problem the API found with a value, said whenever the field holds it", () => {
  const held = [{ field: "username", value: "ada", message: "This username is taken." }];

  it("is said again with its value, and not with another", () => {
    expect(withHeld({ values: { username: "ada" }, errors: {} }, { username: "ada" }, held)).toEqual({
      values: {},
      errors: { username: { type: "server", message: "This username is taken." } },
    });
    expect(withHeld({ values: { username: "ada-l" }, errors: {} }, { username: "ada-l" }, held)).toEqual({ values: { username: "ada-l" }, errors: {} });
  });

  it("leaves a problem the check found at the field first, and keeps the others", () => {
    const found = { values: {}, errors: { username: { type: "local", message: "Must be 3–40 lower-case letters" }, email: { type: "local", message: "Must be a valid email address" } } };
    expect(withHeld(found, { username: "ada", email: "x" }, held).errors).toEqual(found.errors);
  });
});
