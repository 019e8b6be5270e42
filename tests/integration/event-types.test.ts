import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { insertBookingRow } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique, type TestHost } from "../support/factories";

withTestDatabase();

/** Books directly in the database: booking creation belongs to the booking flow. */
async function insertBooking(host: TestHost, eventTypeId: string, start: Date) {
  await insertBookingRow(host.id, eventTypeId, start);
}

describe("POST /me/event-types", () => {
  it("creates with defaults and a public URL", async () => {
    const host = await createHost({ starter: false });
    const res = await api.post("/me/event-types", { slug: "intro-call", title: "Intro call", durationMinutes: 30 }, { token: host.token });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^evt_[A-Za-z0-9_-]{20,}$/),
      slug: "intro-call",
      title: "Intro call",
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
      publicUrl: `http://booking.test/${host.username}/intro-call`,
      createdAt: expect.stringMatching(/Z$/),
    });
  });

  it("keeps every field it is given, questions included", async () => {
    const host = await createHost({ starter: false });
    const body = {
      slug: "deep-dive",
      title: "Deep dive",
      durationMinutes: 90,
      bufferBeforeMinutes: 15,
      bufferAfterMinutes: 10,
      slotIntervalMinutes: 15,
      location: "https://meet.example.com/x",
      description: "Bring questions",
      customQuestions: [{ id: "company", label: "Company", required: true, type: "text" }, { id: "notes", label: "Anything else?" }],
      color: "#10B981",
    };
    const res = await api.post("/me/event-types", body, { token: host.token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ...body, customQuestions: [body.customQuestions[0], { id: "notes", label: "Anything else?", required: false, type: "text" }] });
    const list = await api.get("/me/event-types", { token: host.token });
    expect(list.body.data).toEqual([res.body]);
  });

  it.each([
    ["slug", { slug: "Bad Slug" }],
    ["slug", { slug: "double--hyphen" }],
    ["slug", { slug: "a".repeat(65) }],
    ["title", { title: "" }],
    ["durationMinutes", { durationMinutes: 4 }],
    ["durationMinutes", { durationMinutes: 721 }],
    ["durationMinutes", { durationMinutes: 30.5 }],
    ["bufferAfterMinutes", { bufferAfterMinutes: 241 }],
    ["slotIntervalMinutes", { slotIntervalMinutes: 1 }],
    ["color", { color: "blue" }],
    ["customQuestions.1.id", { customQuestions: [{ id: "q", label: "Q" }, { id: "q", label: "Again" }] }],
    ["customQuestions.0.id", { customQuestions: [{ id: "has space", label: "Q" }] }],
    ["customQuestions.0.type", { customQuestions: [{ id: "q", label: "Q", type: "checkbox" }] }],
    ["customQuestions", { customQuestions: Array.from({ length: 21 }, (_, i) => ({ id: `q${i}`, label: "Q" })) }],
    ["surprise", { surprise: true }],
  ])("rejects a bad %s with 400", async (path, change) => {
    const host = await createHost({ starter: false });
    const res = await api.post("/me/event-types", { slug: unique("s"), title: "T", durationMinutes: 30, ...change }, { token: host.token });
    expect(res.status).toBe(400);
    expect(res.body.details.issues.map((i: { path: string }) => i.path)).toContain(path);
    expect((await api.get("/me/event-types", { token: host.token })).body.data).toEqual([]);
  });

  it("requires slug, title and duration", async () => {
    const host = await createHost({ starter: false });
    const res = await api.post("/me/event-types", {}, { token: host.token });
    expect(res.status).toBe(400);
    expect(res.body.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(["durationMinutes", "slug", "title"]);
  });

  it("answers 409 for a slug the host already uses, while another host may use it", async () => {
    const a = await createHost({ starter: false });
    const b = await createHost({ starter: false });
    await createEventType(a, { slug: "chat" });
    const again = await api.post("/me/event-types", { slug: "chat", title: "Again", durationMinutes: 15 }, { token: a.token });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "conflict", details: { field: "slug" } });
    expect((await api.post("/me/event-types", { slug: "chat", title: "Mine", durationMinutes: 15 }, { token: b.token })).status).toBe(201);
  });

  it("refuses question ids that name Object.prototype members (constructor, __proto__, …)", async () => {
    const host = await createHost();
    for (const id of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      const res = await api.post(
        "/me/event-types",
        { slug: unique("q"), title: "Q", durationMinutes: 30, customQuestions: [{ id, label: "Label", required: true }] },
        { token: host.token },
      );
      expect(res.status, id).toBe(400);
      expect(res.body.details.issues[0].path).toBe("customQuestions.0.id");
    }
  });
});

describe("PATCH /me/event-types/{id}", () => {
  it("changes given fields only and can deactivate", async () => {
    const host = await createHost({ starter: false });
    const created = await createEventType(host, { location: "Zoom" });
    const res = await api.patch(`/me/event-types/${created.id}`, { title: "Renamed", slug: "renamed", isActive: false }, { token: host.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created, title: "Renamed", slug: "renamed", isActive: false, publicUrl: `http://booking.test/${host.username}/renamed` });
  });

  it("answers 409 when renaming onto a taken slug, 400 for bad values, and changes nothing", async () => {
    const host = await createHost({ starter: false });
    const first = await createEventType(host);
    const second = await createEventType(host);
    expect((await api.patch(`/me/event-types/${second.id}`, { slug: first.slug }, { token: host.token })).status).toBe(409);
    expect((await api.patch(`/me/event-types/${second.id}`, { durationMinutes: 0 }, { token: host.token })).status).toBe(400);
    expect((await api.patch(`/me/event-types/${second.id}`, { id: "evt_other" }, { token: host.token })).status).toBe(400);
    const list = await api.get("/me/event-types", { token: host.token });
    expect(list.body.data).toEqual([first, second]);
  });
});

describe("DELETE /me/event-types/{id}", () => {
  it("removes an event type without bookings (204)", async () => {
    const host = await createHost({ starter: false });
    const created = await createEventType(host);
    const res = await api.delete(`/me/event-types/${created.id}`, { token: host.token });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await api.get("/me/event-types", { token: host.token })).body.data).toEqual([]);
    expect((await api.delete(`/me/event-types/${created.id}`, { token: host.token })).status).toBe(404);
  });

  it("deactivates an event type that has bookings (200, isActive false) and keeps it listed", async () => {
    const host = await createHost({ starter: false });
    const created = await createEventType(host);
    await insertBooking(host, created.id, new Date("2027-03-15T13:00:00Z"));
    const res = await api.delete(`/me/event-types/${created.id}`, { token: host.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created, isActive: false });
    expect((await api.get("/me/event-types", { token: host.token })).body.data).toEqual([{ ...created, isActive: false }]);
  });
});

describe("isolation between hosts", () => {
  it("never lets host B read, change or delete host A's event types: 404, and nothing changes", async () => {
    const a = await createHost({ starter: false });
    const b = await createHost({ starter: false });
    const created = await createEventType(a);
    expect((await api.get("/me/event-types", { token: b.token })).body.data).toEqual([]);
    const patch = await api.patch(`/me/event-types/${created.id}`, { title: "Hijacked" }, { token: b.token });
    expect(patch.status).toBe(404);
    expect(patch.body.error).toBe("not_found");
    expect((await api.delete(`/me/event-types/${created.id}`, { token: b.token })).status).toBe(404);
    expect((await api.get("/me/event-types", { token: a.token })).body.data).toEqual([created]);
  });

  it("answers 401 without a token and 404 for an unknown id", async () => {
    const host = await createHost({ starter: false });
    expect((await api.get("/me/event-types")).status).toBe(401);
    expect((await api.patch("/me/event-types/evt_doesnotexist", { title: "x" }, { token: host.token })).status).toBe(404);
  });
});
