import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { withTestDatabase } from "../support/database";
import { unique } from "../support/factories";

withTestDatabase();

// The foundation's whole path for a new host, as a client would walk it.
describe("a new host's first session", () => {
  it("registers, logs in, sets availability and publishes an event type", async () => {
    const username = unique("maria");
    const email = `${username}@example.com`;
    const reg = await api.post("/auth/register", { email, password: "long enough password", fullName: "María José", username, timezone: "Europe/Madrid" });
    expect(reg.status).toBe(201);

    const login = await api.post("/auth/login", { email, password: "long enough password" });
    expect(login.status).toBe(200);
    const token = login.body.accessToken as string;

    const availability = {
      minNoticeHours: 24,
      maxAdvanceDays: 90,
      weeklyRules: [
        { dayOfWeek: 2, startTime: "10:00", endTime: "14:00" },
        { dayOfWeek: 4, startTime: "16:00", endTime: "20:00" },
      ],
      dateOverrides: [{ date: "2027-01-06", available: false }],
    };
    const put = await api.put("/me/availability", availability, { token });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ timezone: "Europe/Madrid", ...availability });

    const created = await api.post(
      "/me/event-types",
      { slug: "consulta", title: "Consulta", durationMinutes: 45, bufferAfterMinutes: 15, customQuestions: [{ id: "topic", label: "Topic", required: true }] },
      { token },
    );
    expect(created.status).toBe(201);
    expect(created.body.publicUrl).toBe(`http://booking.test/${username}/consulta`);

    // The starter every new host gets (ready to share at once), then their own.
    const list = await api.get("/me/event-types", { token });
    expect(list.body.data).toEqual([
      expect.objectContaining({ slug: "30min", title: "30 minute meeting", durationMinutes: 30, isActive: true, publicUrl: `http://booking.test/${username}/30min` }),
      created.body,
    ]);
    const starter = await api.get(`/public/${username}/30min`);
    expect(starter.status).toBe(200);
    expect(starter.body.eventType).toMatchObject({ title: "30 minute meeting", durationMinutes: 30 });
    expect((await api.get("/me", { token })).body).toMatchObject({ username, fullName: "María José", timezone: "Europe/Madrid" });
  });
});
