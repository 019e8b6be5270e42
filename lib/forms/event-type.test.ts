import { describe, expect, it } from "vitest";
import type { TeamEventTypeDto } from "@/lib/browser/api-client/event-types";
import type { TeamMemberDto } from "@/lib/browser/api-client/teams";
import { CreateEventTypeBody } from "@/lib/schemas/event-type";
import { CreateTeamEventTypeBody } from "@/lib/schemas/team";
import { eventTypeValues, newQuestion, reminderDraft, toEventTypeBody, wholeNumber, type EventTypeValues, type QuestionDraft } from "./event-type";
import { possibleHosts } from "./event-type-hosts";
import { eventTypeFieldOf, eventTypeServerWords, unplacedWords } from "./event-type-issues";
import { eventTypeRules } from "./event-type-rules";
import { checkForm } from "./resolver";

const question = (q: Partial<QuestionDraft>): QuestionDraft => ({ ...newQuestion(), ...q });

const valid: EventTypeValues = {
  title: "Intro call",
  slug: "intro-call",
  durationMinutes: "30",
  bufferBeforeMinutes: "0",
  bufferAfterMinutes: "10",
  slotIntervalMinutes: "",
  location: "",
  description: "",
  color: "#2563eb",
  customQuestions: [question({ label: "Company" })],
  requiresConfirmation: false,
  limits: { perDay: "", perWeek: "" },
  scheduleId: "",
  minNoticeHours: "",
  maxAdvanceDays: "",
  reminders: [],
  schedulingType: "round_robin",
  hostIds: [],
  seats: { on: false, max: "10", showRemaining: true },
  recurrence: { on: false, everyWeeks: "1", maxOccurrences: "4" },
  conflictCalendars: { all: true, ids: [] },
  price: { on: false, amount: "", currency: "eur", refundableUntilHours: "24", locale: "en" },
};

/** What the page says before sending: the API's schema over the body the form would send. */
const check = (f: EventTypeValues) => checkForm(eventTypeRules("me", "create"), f);

/** What the API says about the same body. */
const apiAccepts = (f: EventTypeValues): boolean => CreateEventTypeBody.safeParse(toEventTypeBody(f, "me")).success;

describe("the event-type form's check before sending (the API's schema, the page's words)", () => {
  it("accepts a valid form", async () => {
    expect(await check(valid)).toEqual({});
    expect(apiAccepts(valid)).toBe(true);
  });

  it("finds every problem at once, at the API's paths, in plain words", async () => {
    const problems = await check({
      ...valid,
      title: "  ",
      slug: "Intro Call!",
      durationMinutes: "2",
      bufferBeforeMinutes: "",
      bufferAfterMinutes: "300",
      slotIntervalMinutes: "7.5",
      customQuestions: [question({ label: "Company" }), question({ label: " " }), question({ label: "Tools", type: "checkboxes", options: " \n" })],
    });
    expect(problems).toEqual({
      title: "Enter a title.",
      slug: "Use only lower-case letters, digits and hyphens, e.g. intro-call (no spaces or other signs).",
      durationMinutes: "Enter whole minutes from 5 to 720.",
      bufferBeforeMinutes: "Enter whole minutes from 0 to 240 (0 for none).",
      bufferAfterMinutes: "Enter whole minutes from 0 to 240 (0 for none).",
      slotIntervalMinutes: "Enter whole minutes from 5 to 720, or leave it empty.",
      "customQuestions.1.label": "Write the question, or remove it.",
      "customQuestions.2.options": "Write at least one option, one a line.",
    });
  });

  it.each([
    ["", "Enter the last part of the booking link, e.g. intro-call."],
    ["Intro-call", "Use lower-case letters only."],
    ["-intro", "Start and end with a letter or digit, not a hyphen."],
    ["intro--call", "Use single hyphens between words."],
    ["intro call", "Use only lower-case letters, digits and hyphens, e.g. intro-call (no spaces or other signs)."],
    ["a".repeat(65), "Use at most 64 characters."],
  ])("says what is wrong with the link %j", async (slug, message) => {
    expect((await check({ ...valid, slug })).slug).toBe(message);
    expect(apiAccepts({ ...valid, slug })).toBe(false);
  });

  it("agrees with the API on the bounds of every number", async () => {
    for (const [key, min, max] of [
      ["durationMinutes", 5, 720],
      ["bufferBeforeMinutes", 0, 240],
      ["bufferAfterMinutes", 0, 240],
      ["slotIntervalMinutes", 5, 720],
    ] as const) {
      for (const value of [min - 1, min, max, max + 1]) {
        const f = { ...valid, [key]: String(value) };
        const pageOk = (await check(f))[key] === undefined;
        expect(pageOk, `${key}=${value}`).toBe(value >= min && value <= max);
        expect(apiAccepts(f), `${key}=${value}`).toBe(pageOk);
      }
    }
    expect((await check({ ...valid, durationMinutes: "" })).durationMinutes).toBe("Enter how long it lasts, from 5 to 720 minutes.");
  });

  it("names an option's problem at the options box, with its number", async () => {
    const problems = await check({ ...valid, customQuestions: [question({ label: "Plan", type: "single_choice", options: "Basic\nPro\n\nBasic" })] });
    expect(problems).toEqual({ "customQuestions.0.options": 'Option 3: "Basic" is already an option' });
  });

  it("reads only whole numbers", () => {
    expect(wholeNumber(" 45 ")).toBe(45);
    for (const text of ["", "4.5", "1e3", "-5", "abc"]) expect(wholeNumber(text)).toBeNaN();
  });
});

describe("eventTypeFieldOf: where an API issue is shown", () => {
  it("shows top-level fields at themselves, a question's id at its label, the list's own problem at its heading", () => {
    expect(eventTypeFieldOf("durationMinutes")).toBe("durationMinutes");
    expect(eventTypeFieldOf("customQuestions.2.label")).toBe("customQuestions.2.label");
    expect(eventTypeFieldOf("customQuestions.2.id")).toBe("customQuestions.2.label");
    expect(eventTypeFieldOf("customQuestions")).toBe("customQuestions.root");
  });

  it("shows a question's type, display and options at the editor's fields, an option with its number", () => {
    expect(eventTypeFieldOf("customQuestions.1.type")).toBe("customQuestions.1.type");
    expect(eventTypeFieldOf("customQuestions.1.options")).toBe("customQuestions.1.options");
    expect(eventTypeFieldOf("customQuestions.1.options.3")).toBe("customQuestions.1.options");
    expect(eventTypeServerWords('"Basic" is already an option', { path: "customQuestions.1.options.3" })).toBe('Option 4: "Basic" is already an option');
    expect(eventTypeFieldOf("customQuestions.1.display")).toBe("customQuestions.1.display");
  });

  it("leaves what no field shows to the summary, saying which question", () => {
    expect(eventTypeFieldOf("customQuestions.1.required")).toBeUndefined();
    expect(eventTypeFieldOf("isActive")).toBeUndefined();
    expect(unplacedWords("Must be one of: text, phone", "customQuestions.1.type")).toBe("Question 2: Must be one of: text, phone");
    expect(unplacedWords("The request body is not valid JSON", "")).toBe("The request body is not valid JSON");
  });

  it("sends #22's fields: confirmation, limits (empty: none), notice and window (empty: the host's), reminders in minutes", () => {
    const body = toEventTypeBody(
      {
        ...valid,
        requiresConfirmation: true,
        limits: { perDay: "3", perWeek: "" },
        minNoticeHours: "",
        maxAdvanceDays: " 30 ",
        reminders: [
          { amount: "1", unit: "days", to: "guest" },
          { amount: "2", unit: "hours", to: "both" },
          { amount: "15", unit: "minutes", to: "host" },
        ],
      },
      "me",
    );
    expect(body).toMatchObject({
      requiresConfirmation: true,
      limits: { perDay: 3 },
      minNoticeHours: null,
      maxAdvanceDays: 30,
      reminders: [
        { minutesBefore: 1440, to: "guest" },
        { minutesBefore: 120, to: "both" },
        { minutesBefore: 15, to: "host" },
      ],
    });
    expect(body.limits).toEqual({ perDay: 3 });
    expect(reminderDraft({ minutesBefore: 2880, to: "both" })).toEqual({ amount: "2", unit: "days", to: "both" });
    expect(reminderDraft({ minutesBefore: 90, to: "guest" })).toEqual({ amount: "90", unit: "minutes", to: "guest" });
    expect(reminderDraft({ minutesBefore: 180, to: "host" })).toEqual({ amount: "3", unit: "hours", to: "host" });
  });

  it("says #22's problems at their fields: limits, notice, window, a reminder's amount", async () => {
    const found = await check({
      ...valid,
      limits: { perDay: "0", perWeek: "abc" },
      minNoticeHours: "9999",
      maxAdvanceDays: "0",
      reminders: [
        { amount: "8", unit: "days", to: "guest" },
        { amount: "", unit: "minutes", to: "host" },
        { amount: "4", unit: "minutes", to: "both" },
      ],
    });
    expect(found).toEqual({
      "limits.perDay": "Enter a whole number from 1 to 100, or leave it empty for no limit.",
      "limits.perWeek": "Enter a whole number from 1 to 100, or leave it empty for no limit.",
      minNoticeHours: "Enter whole hours from 0 to 8760, or leave it empty for the host's own.",
      maxAdvanceDays: "Enter whole days from 1 to 730, or leave it empty for the host's own.",
      "reminders.0.amount": "Choose a time from 5 minutes to 7 days before the start.",
      "reminders.1.amount": "Choose a time from 5 minutes to 7 days before the start.",
      "reminders.2.amount": "Choose a time from 5 minutes to 7 days before the start.",
    });
    const six = Array.from({ length: 6 }, () => ({ amount: "1", unit: "hours" as const, to: "guest" as const }));
    expect(await check({ ...valid, reminders: six })).toEqual({ "reminders.root": "Keep at most 5 reminders." });
    expect(eventTypeFieldOf("reminders.3.to")).toBe("reminders.3.to");
    expect(unplacedWords("Too many", "reminders.2")).toBe("Reminder 3: Too many");
  });
});

describe("a team's event type: the same form, with its hosts", () => {
  const member = (userId: string, status: TeamMemberDto["status"] = "active"): TeamMemberDto => ({ userId, username: userId, fullName: userId, role: "member", status });
  // Who may host: the active members (an invited one cannot).
  const possible = possibleHosts([member("ada"), member("grace"), member("alan", "invited")]).map((m) => m.userId);

  it("starts as round robin, hosted by every member who may host", () => {
    const v = eventTypeValues(undefined, possible);
    expect(v.schedulingType).toBe("round_robin");
    expect(v.hostIds).toEqual(["ada", "grace"]);
  });

  it("keeps a stored one's hosts who still may host", () => {
    const stored: TeamEventTypeDto = { ...storedEventType(), teamId: "team_1", schedulingType: "collective", hostIds: ["grace", "gone"] };
    const v = eventTypeValues(stored, possible);
    expect(v.schedulingType).toBe("collective");
    expect(v.hostIds).toEqual(["grace"]);
  });

  it("sends the common fields and the team's two, and no schedule of its own; the host's own sends neither", () => {
    const v = { ...eventTypeValues(undefined, possible), title: "Demo", slug: "demo", scheduleId: "sch_1" };
    expect(toEventTypeBody(v, "team")).toMatchObject({ title: "Demo", slug: "demo", durationMinutes: 30, scheduleId: null, schedulingType: "round_robin", hostIds: ["ada", "grace"] });
    // What the API takes, by its own schema.
    expect(CreateTeamEventTypeBody.safeParse(toEventTypeBody(v, "team")).success).toBe(true);
    const own = toEventTypeBody(v, "me");
    expect(own).not.toHaveProperty("schedulingType");
    expect(own).not.toHaveProperty("hostIds");
    expect(own.scheduleId).toBe("sch_1");
    expect(CreateEventTypeBody.safeParse(own).success).toBe(true);
  });

  it("asks for at least one host, and for how bookings are shared", async () => {
    const v = { ...eventTypeValues(undefined, possible), title: "Demo", slug: "demo", hostIds: [], schedulingType: "" as const };
    expect(await checkForm(eventTypeRules("team", "create"), v)).toEqual({
      schedulingType: "Choose how bookings are shared: round robin or collective.",
      hostIds: "Choose at least one host.",
    });
    // The host's own has neither to choose.
    expect(await checkForm(eventTypeRules("me", "create"), v)).toEqual({});
  });

  it("shows the API's issues at the team's fields, and the common ones at theirs", () => {
    expect(eventTypeFieldOf("hostIds")).toBe("hostIds");
    expect(eventTypeFieldOf("hostIds.1")).toBe("hostIds");
    expect(eventTypeFieldOf("schedulingType")).toBe("schedulingType");
    expect(eventTypeFieldOf("customQuestions.0.label")).toBe("customQuestions.0.label");
    expect(eventTypeFieldOf("durationMinutes")).toBe("durationMinutes");
  });
});

describe("group sessions and series in the form (decisions §19)", () => {
  it("sends null for a setting that is off, and the numbers for one that is on", () => {
    expect(toEventTypeBody(valid, "me")).toMatchObject({ seats: null, recurrence: null });
    // Which calendars block it (decisions §21): null for all marked "check for conflicts", else the chosen ids; a team's sends none.
    expect(toEventTypeBody(valid, "me")).toMatchObject({ conflictCalendars: null });
    expect(toEventTypeBody({ ...valid, conflictCalendars: { all: false, ids: ["cld_work"] } }, "me")).toMatchObject({ conflictCalendars: ["cld_work"] });
    expect(toEventTypeBody({ ...valid, conflictCalendars: { all: false, ids: [] } }, "me")).toMatchObject({ conflictCalendars: [] });
    expect(toEventTypeBody({ ...valid, schedulingType: "collective", conflictCalendars: { all: false, ids: ["x"] } }, "team")).not.toHaveProperty("conflictCalendars");
    expect(eventTypeValues({ ...storedEventType(), conflictCalendars: ["cld_work"] }).conflictCalendars).toEqual({ all: false, ids: ["cld_work"] });
    expect(eventTypeFieldOf("conflictCalendars")).toBe("conflictCalendars.all");
    const on = { ...valid, seats: { on: true, max: "8", showRemaining: false }, recurrence: { on: true, everyWeeks: "2", maxOccurrences: "6" } };
    expect(toEventTypeBody(on, "me")).toMatchObject({ seats: { max: 8, showRemaining: false }, recurrence: { everyWeeks: 2, maxOccurrences: 6 } });
    expect(apiAccepts(on)).toBe(true);
  });

  it("reads a stored one's settings back, and a new one starts with both off", () => {
    const stored = { ...storedEventType(), seats: { max: 12, showRemaining: true }, recurrence: { everyWeeks: 1, maxOccurrences: 8 } };
    const v = eventTypeValues(stored);
    expect(v.seats).toEqual({ on: true, max: "12", showRemaining: true });
    expect(v.recurrence).toEqual({ on: true, everyWeeks: "1", maxOccurrences: "8" });
    expect(eventTypeValues(undefined).seats.on).toBe(false);
    expect(eventTypeValues(undefined).recurrence.on).toBe(false);
  });

  it("does not send what the type cannot have: round robin no seats, collective no series", () => {
    const both = { ...valid, hostIds: ["ada"], seats: { on: true, max: "8", showRemaining: true }, recurrence: { on: true, everyWeeks: "1", maxOccurrences: "4" } };
    expect(toEventTypeBody({ ...both, schedulingType: "round_robin" }, "team")).toMatchObject({ seats: null, recurrence: { everyWeeks: 1, maxOccurrences: 4 } });
    expect(toEventTypeBody({ ...both, schedulingType: "collective" }, "team")).toMatchObject({ seats: { max: 8 }, recurrence: null });
    // The host's own may have both.
    expect(toEventTypeBody(both, "me")).toMatchObject({ seats: { max: 8 }, recurrence: { everyWeeks: 1 } });
  });

  it("says what is wrong with the numbers, at their fields", async () => {
    const problems = await check({ ...valid, seats: { on: true, max: "1", showRemaining: true }, recurrence: { on: true, everyWeeks: "1", maxOccurrences: "30" } });
    expect(problems).toEqual({
      "seats.max": "Enter a whole number of guests from 2 to 1000.",
      "recurrence.maxOccurrences": "Enter a whole number of sessions from 2 to 24.",
    });
    // Off, the numbers are not checked: nothing of them is sent.
    expect(await check({ ...valid, seats: { on: false, max: "", showRemaining: true } })).toEqual({});
  });

  it("shows the API's issues at their fields: the whole setting's at its switch", () => {
    expect(eventTypeFieldOf("seats")).toBe("seats.on");
    expect(eventTypeFieldOf("recurrence")).toBe("recurrence.on");
    expect(eventTypeFieldOf("seats.max")).toBe("seats.max");
    expect(eventTypeFieldOf("recurrence.maxOccurrences")).toBe("recurrence.maxOccurrences");
    expect(eventTypeFieldOf("recurrence.everyWeeks")).toBe("recurrence.everyWeeks");
  });
});

describe("the price in the form (decisions §20)", () => {
  const priced = (price: Partial<EventTypeValues["price"]>): EventTypeValues => ({ ...valid, price: { ...valid.price, on: true, ...price } });

  it("sends null when off, and the amount typed in the host's locale in minor units", () => {
    expect(toEventTypeBody(valid, "me").price).toBeNull();
    expect(toEventTypeBody(priced({ amount: "49.90" }), "me").price).toEqual({ amount: 4990, currency: "eur", refundableUntilHours: 24 });
    expect(toEventTypeBody(priced({ amount: "49,90", locale: "de" }), "me").price).toEqual({ amount: 4990, currency: "eur", refundableUntilHours: 24 });
    expect(toEventTypeBody(priced({ amount: "5000", currency: "jpy", refundableUntilHours: "0" }), "me").price).toEqual({ amount: 5000, currency: "jpy", refundableUntilHours: 0 });
  });

  it("reads a stored price back in the host's locale, and a new one starts off in their usual currency", () => {
    const stored = { ...storedEventType(), price: { amount: 4990, currency: "eur", refundableUntilHours: 48 } };
    expect(eventTypeValues(stored, [], { locale: "de", currency: "usd" }).price).toEqual({ on: true, amount: "49,90", currency: "eur", refundableUntilHours: "48", locale: "de" });
    expect(eventTypeValues(undefined, [], { locale: "en", currency: "gbp" }).price).toMatchObject({ on: false, currency: "gbp", refundableUntilHours: "24" });
  });

  it("says what is wrong with the amount and the window, at their fields, in the host's way of writing", async () => {
    expect(await check(priced({ amount: "" }))).toEqual({ "price.amount": "Enter what a guest pays, at least €0.50." });
    expect(await check(priced({ amount: "49.999" }))).toEqual({ "price.amount": "Enter an amount such as 49.90, at least €0.50." });
    expect(await check(priced({ amount: "0,20", locale: "de" }))).toEqual({ "price.amount": "Enter an amount such as 49,90, at least 0,50 €." });
    expect(await check(priced({ amount: "10", refundableUntilHours: "1000" }))).toEqual({ "price.refundableUntilHours": expect.stringContaining("0 to 720") });
    expect(await check({ ...valid, price: { ...valid.price, amount: "nonsense" } })).toEqual({});
  });

  it("shows payments not set up (400 at price) at the switch", () => {
    expect(eventTypeFieldOf("price")).toBe("price.on");
    expect(eventTypeFieldOf("price.amount")).toBe("price.amount");
  });
});

function storedEventType() {
  return {
    id: "et_1",
    slug: "demo",
    title: "Demo",
    durationMinutes: 30,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    slotIntervalMinutes: 30,
    location: "",
    description: "",
    customQuestions: [],
    isActive: true,
    color: "#2563eb",
    requiresConfirmation: false,
    limits: {},
    reminders: [],
    minNoticeHours: null,
    maxAdvanceDays: null,
    scheduleId: null,
    seats: null,
    recurrence: null,
    conflictCalendars: null,
    price: null,
    publicUrl: "http://localhost/team/sales/demo",
    createdAt: "2026-11-27T00:00:00.000Z",
  };
}
