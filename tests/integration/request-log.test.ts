import { afterEach, describe, expect, it, vi } from "vitest";
import { log } from "@/lib/log";
import { api } from "../support/api";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost } from "../support/factories";

withTestDatabase();

const level = log.level;
afterEach(() => {
  log.level = level;
  vi.restoreAllMocks();
});

describe("the request log", () => {
  it("names the route's pattern, never a path that carries the guest's token", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const date = dateIn(4, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    const made = await book(host, et.slug, slot!.startTime);
    const token = made.body.cancelUrl.split("/").pop() as string;

    log.level = "info";
    const lines: unknown[] = [];
    vi.spyOn(log, "info").mockImplementation(((obj: unknown) => void lines.push(obj)) as never);
    expect((await api.get(`/public/bookings/${token}.ics`)).status).toBe(200);
    // A method the route does not take answers 405 through another door: it must not log the path either.
    expect((await api.post(`/public/bookings/${token}.ics`, {})).status).toBe(405);

    expect(lines).toHaveLength(2);
    expect(JSON.stringify(lines)).not.toContain(token);
    expect(lines).toEqual([
      expect.objectContaining({ method: "GET", route: "/api/v1/public/bookings/{token}.ics", status: 200 }),
      expect.objectContaining({ method: "POST", route: "/api/v1/public/bookings/{token}.ics", status: 405 }),
    ]);
  });

  it("logs a path that matched no route as it came, so a 404 can still be traced", async () => {
    log.level = "info";
    const lines: unknown[] = [];
    vi.spyOn(log, "info").mockImplementation(((obj: unknown) => void lines.push(obj)) as never);
    expect((await api.get("/no/such/route")).status).toBe(404);
    expect(lines).toEqual([expect.objectContaining({ route: "unmatched", path: "/api/v1/no/such/route", status: 404 })]);
  });
});
