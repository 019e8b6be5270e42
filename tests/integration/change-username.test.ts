import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { dateIn } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique } from "../support/factories";

// PATCH /me { username }: the public pages move with it. The old addresses answer 404 at once,
// although the public event type and its slots were cached under the old one.

withTestDatabase();

describe("changing the username (PATCH /me)", () => {
  it("moves the public pages: the old name answers 404, the new one 200", async () => {
    const host = await createHost();
    const eventType = await createEventType(host);
    const date = dateIn(5, host.timezone);
    const paths = (name: string) => [`/public/${name}/${eventType.slug}`, `/public/${name}/${eventType.slug}/slots?from=${date}&to=${date}&timezone=UTC`];
    // Warm the cache under the old name.
    for (const path of paths(host.username)) expect((await api.get(path)).status, path).toBe(200);

    const renamed = unique("moved");
    const res = await api.patch("/me", { username: renamed }, { token: host.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.username).toBe(renamed);
    expect((await api.get("/me", { token: host.token })).body.username).toBe(renamed);

    for (const path of paths(host.username)) {
      const old = await api.get(path);
      expect(old.status, path).toBe(404);
      expect(old.body.error).toBe("not_found");
    }
    for (const path of paths(renamed)) expect((await api.get(path)).status, path).toBe(200);
    const listed = await api.get("/me/event-types", { token: host.token });
    // Every event type's link follows, the starter's included.
    expect(listed.body.data.map((e: { publicUrl: string }) => e.publicUrl)).toEqual([
      `http://booking.test/${renamed}/30min`,
      `http://booking.test/${renamed}/${eventType.slug}`,
    ]);
  });

  it("answers 409 for a taken username and 400 for a malformed or reserved one, changing nothing", async () => {
    const host = await createHost();
    const other = await createHost();
    const taken = await api.patch("/me", { username: other.username, fullName: "Not Saved" }, { token: host.token });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe("conflict");
    expect(taken.body.details.field).toBe("username");
    for (const username of ["Bad Name", "ab", "dashboard", "reset-password", ""]) {
      const res = await api.patch("/me", { username }, { token: host.token });
      expect(res.status, username).toBe(400);
      expect(res.body.details.issues[0].path).toBe("username");
    }
    const me = (await api.get("/me", { token: host.token })).body;
    expect(me.username).toBe(host.username);
    expect(me.fullName).toBe("Test Host");
    // Its own name again is no conflict.
    expect((await api.patch("/me", { username: host.username }, { token: host.token })).status).toBe(200);
  });
});
