import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { eventTypes } from "@/db/schema";
import { api } from "../support/api";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique, type TestHost } from "../support/factories";

// Every kind of custom question: hosts define them (choice questions with their options), the
// public page shows them, and a guest's answers are checked by their question's type before
// anything is stored.

withTestDatabase();

const QUESTIONS = [
  { id: "topic", label: "Topic" },
  { id: "notes", label: "Anything else?", type: "long_text" },
  { id: "work-email", label: "Work email", type: "email", required: true },
  { id: "seats", label: "Seats", type: "number", required: true },
  { id: "mobile", label: "Mobile", type: "phone" },
  { id: "plan", label: "Plan", type: "single_choice", options: [" Basic ", "Pro"], required: true },
  { id: "size", label: "Team size", type: "single_choice", options: ["1–10", "11+"], display: "dropdown" },
  { id: "tools", label: "Tools you use", type: "checkboxes", options: ["Slack", "Email, mostly", "Teams"] },
];

async function setUp() {
  const host = await createHost({ timezone: "Europe/Berlin", starter: false });
  const et = await createEventType(host, { customQuestions: QUESTIONS });
  const date = dateIn(8, host.timezone);
  await openOnly(host, date);
  const slots = await getSlots(host, et.slug, date);
  return { host, et, slots };
}

const bookingsOf = async (host: TestHost) => (await api.get("/me/bookings", { token: host.token })).body.data;

describe("question types on event types", () => {
  it("are created with their options, single choice shown as radio buttons unless a dropdown is asked for, and shown on the public page", async () => {
    const { host, et } = await setUp();
    const expected = [
      { id: "topic", label: "Topic", required: false, type: "text" },
      { id: "notes", label: "Anything else?", required: false, type: "long_text" },
      { id: "work-email", label: "Work email", required: true, type: "email" },
      { id: "seats", label: "Seats", required: true, type: "number" },
      { id: "mobile", label: "Mobile", required: false, type: "phone" },
      { id: "plan", label: "Plan", required: true, type: "single_choice", options: ["Basic", "Pro"], display: "radio" },
      { id: "size", label: "Team size", required: false, type: "single_choice", options: ["1–10", "11+"], display: "dropdown" },
      { id: "tools", label: "Tools you use", required: false, type: "checkboxes", options: ["Slack", "Email, mostly", "Teams"] },
    ];
    expect(et.customQuestions).toEqual(expected);
    expect((await api.get("/me/event-types", { token: host.token })).body.data[0].customQuestions).toEqual(expected);
    expect((await api.get(`/public/${host.username}/${et.slug}`)).body.eventType.customQuestions).toEqual(expected);

    const doc = JSON.stringify((await api.get("/openapi.json")).body);
    expect(doc).toContain('"enum":["text","long_text","email","number","phone","single_choice","checkboxes"]');
    expect(doc).toContain("joined by a newline");
  });

  it.each([
    ["options on a text question", { id: "a", label: "A", options: ["x"] }, "customQuestions.0.options", "Only single_choice and checkboxes questions have options"],
    ["a single choice without options", { id: "a", label: "A", type: "single_choice" }, "customQuestions.0.options", "A choice question needs its options (1 to 50)"],
    ["checkboxes with no options", { id: "a", label: "A", type: "checkboxes", options: [] }, "customQuestions.0.options", "Add at least one option"],
    ["a blank option", { id: "a", label: "A", type: "checkboxes", options: ["x", "  "] }, "customQuestions.0.options.1", "An option must not be empty"],
    ["the same option twice", { id: "a", label: "A", type: "single_choice", options: ["Yes", " Yes"] }, "customQuestions.0.options.1", '"Yes" is already an option'],
    ["an option with a newline", { id: "a", label: "A", type: "checkboxes", options: ["one\ntwo"] }, "customQuestions.0.options.0", expect.stringContaining("one line")],
    ["an option too long", { id: "a", label: "A", type: "checkboxes", options: ["x".repeat(201)] }, "customQuestions.0.options.0", expect.stringContaining("200")],
    ["51 options", { id: "a", label: "A", type: "checkboxes", options: Array.from({ length: 51 }, (_, i) => `o${i}`) }, "customQuestions.0.options", "At most 50 options"],
    ["a display on checkboxes", { id: "a", label: "A", type: "checkboxes", options: ["x"], display: "dropdown" }, "customQuestions.0.display", "Only single_choice questions have a display"],
    ["an unknown display", { id: "a", label: "A", type: "single_choice", options: ["x"], display: "slider" }, "customQuestions.0.display", expect.any(String)],
    ["an unknown type", { id: "a", label: "A", type: "date" }, "customQuestions.0.type", expect.any(String)],
  ])("refuse %s with 400 at its path, storing nothing", async (_, question, path, message) => {
    const host = await createHost({ starter: false });
    const slug = unique("bad");
    const res = await api.post("/me/event-types", { slug, title: "Bad", durationMinutes: 30, customQuestions: [question] }, { token: host.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("validation_error");
    expect(res.body.details.issues).toContainEqual({ path, message });
    expect((await api.get("/me/event-types", { token: host.token })).body.data).toEqual([]);
  });

  it("a question changed to a choice needs its options; given them, it is saved", async () => {
    const { host, et } = await setUp();
    const bad = await api.patch(`/me/event-types/${et.id}`, { customQuestions: [{ id: "topic", label: "Topic", type: "single_choice" }] }, { token: host.token });
    expect(bad.status).toBe(400);
    expect(bad.body.details.issues).toEqual([{ path: "customQuestions.0.options", message: "A choice question needs its options (1 to 50)" }]);
    expect((await api.get("/me/event-types", { token: host.token })).body.data[0].customQuestions).toHaveLength(QUESTIONS.length);

    const good = await api.patch(`/me/event-types/${et.id}`, { customQuestions: [{ id: "topic", label: "Topic", type: "single_choice", options: ["A", "B"], display: "dropdown" }] }, { token: host.token });
    expect(good.status).toBe(200);
    expect(good.body.customQuestions).toEqual([{ id: "topic", label: "Topic", required: false, type: "single_choice", options: ["A", "B"], display: "dropdown" }]);
  });
});

describe("answers at booking time", () => {
  it("are stored as checked: free text as written, email trimmed, number with a point, phone in E.164, checkboxes one option a line in the question's order", async () => {
    const { host, et, slots } = await setUp();
    const res = await book(host, et.slug, slots[0]!.startTime, {
      customAnswers: {
        topic: " As typed ",
        notes: "Line one\nLine two",
        "work-email": " ada@example.com ",
        seats: "2,5",
        mobile: "+49 30 1234 5678",
        plan: "Pro",
        size: "",
        tools: "Teams\nSlack",
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [booking] = await bookingsOf(host);
    expect(booking.customAnswers).toEqual({
      topic: " As typed ",
      notes: "Line one\nLine two",
      "work-email": "ada@example.com",
      seats: "2.5",
      mobile: "+493012345678",
      plan: "Pro",
      tools: "Slack\nTeams",
    });
  });

  it("refused answers come back all at once, each at customAnswers.<id>, and nothing is booked", async () => {
    const { host, et, slots } = await setUp();
    const res = await book(host, et.slug, slots[0]!.startTime, {
      customAnswers: {
        topic: "x".repeat(2001),
        notes: "x".repeat(5001),
        "work-email": "ada@localhost",
        seats: "twelve",
        mobile: "030 1234567",
        plan: "Enterprise",
        size: "1-10",
        tools: "Slack\nZoom",
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("validation_error");
    expect(res.body.details.issues).toEqual([
      { path: "customAnswers.topic", message: "At most 2000 characters" },
      { path: "customAnswers.notes", message: "At most 5000 characters" },
      { path: "customAnswers.work-email", message: "Must be an email address, like name@example.com" },
      { path: "customAnswers.seats", message: "Must be a number, like 42 or 3.5" },
      { path: "customAnswers.mobile", message: expect.stringContaining("international format") },
      { path: "customAnswers.plan", message: "Must be one of the choices offered" },
      { path: "customAnswers.size", message: "Must be one of the choices offered" },
      { path: "customAnswers.tools", message: '"Zoom" is not one of the choices offered' },
    ]);
    expect(await bookingsOf(host)).toEqual([]);
  });

  it("required questions need an answer; a checkbox chosen twice or a number with a thousands comma is refused", async () => {
    const { host, et, slots } = await setUp();
    const missing = await book(host, et.slug, slots[0]!.startTime, { customAnswers: { plan: " " } });
    expect(missing.status).toBe(400);
    expect(missing.body.details.issues).toEqual([
      { path: "customAnswers.work-email", message: '"Work email" needs an answer' },
      { path: "customAnswers.seats", message: '"Seats" needs an answer' },
      { path: "customAnswers.plan", message: '"Plan" needs an answer' },
    ]);
    const odd = await book(host, et.slug, slots[0]!.startTime, {
      customAnswers: { "work-email": "a@example.com", seats: "1,000", plan: "Basic", tools: "Slack\nSlack" },
    });
    expect(odd.status).toBe(400);
    expect(odd.body.details.issues).toEqual([
      { path: "customAnswers.seats", message: expect.stringContaining("without thousands separators") },
      { path: "customAnswers.tools", message: '"Slack" is chosen more than once' },
    ]);
    expect(await bookingsOf(host)).toEqual([]);
  });

  it("an answer longer than any question takes is refused by the body's own bound", async () => {
    const { host, et, slots } = await setUp();
    const res = await book(host, et.slug, slots[0]!.startTime, { customAnswers: { tools: "x".repeat(20_000) } });
    expect(res.status).toBe(400);
    expect(res.body.details.issues).toEqual([expect.objectContaining({ path: "customAnswers.tools" })]);
  });

  it("a question stored with an id that names an Object.prototype member (before ids were checked) still needs its answer", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    // Written past the API, as rows from before the rule would be.
    await (await getDb())
      .update(eventTypes)
      .set({ customQuestions: [{ id: "constructor", label: "Who are you", required: true, type: "text" }] })
      .where(eq(eventTypes.id, et.id));
    const date = dateIn(3, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    const missing = await book(host, et.slug, slot!.startTime);
    expect(missing.status, JSON.stringify(missing.body)).toBe(400);
    expect(missing.body.details.issues).toEqual([{ path: "customAnswers.constructor", message: '"Who are you" needs an answer' }]);
    const answered = await book(host, et.slug, slot!.startTime, { customAnswers: { constructor: "Ada" } });
    expect(answered.status, JSON.stringify(answered.body)).toBe(201);
  });
});
