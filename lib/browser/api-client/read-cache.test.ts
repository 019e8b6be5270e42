import { describe, expect, it, vi } from "vitest";
import { ApiError } from "./fetch-json";
import { ReadCache } from "./read-cache";

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("ReadCache", () => {
  it("asks once for a key while a request is under way, and keeps a fresh answer", async () => {
    let now = 0;
    const cache = new ReadCache({ freshMs: 30_000, now: () => now });
    const answer = deferred<number[]>();
    const load = vi.fn(() => answer.promise);
    const a = cache.fetch("slots|k", load);
    const b = cache.fetch("slots|k", load);
    expect(cache.peek("slots|k")?.status).toBe("pending");
    answer.resolve([1, 2]);
    expect(await a).toEqual([1, 2]);
    expect(await b).toEqual([1, 2]);
    expect(load).toHaveBeenCalledTimes(1);

    now = 29_000;
    expect(await cache.fetch("slots|k", () => Promise.resolve([3]))).toEqual([1, 2]);
    now = 31_000;
    expect(await cache.fetch("slots|k", () => Promise.resolve([3]))).toEqual([3]);
  });

  it("tries once more after a transient failure, never after a refusal", async () => {
    const cache = new ReadCache();
    const flaky = vi.fn().mockRejectedValueOnce(new ApiError(0, "network_error", "offline")).mockResolvedValueOnce(["ok"]);
    expect(await cache.fetch("a", flaky)).toEqual(["ok"]);
    expect(flaky).toHaveBeenCalledTimes(2);

    const refused = vi.fn().mockRejectedValue(new ApiError(400, "validation_error", "bad"));
    await expect(cache.fetch("b", refused)).rejects.toMatchObject({ code: "validation_error" });
    expect(refused).toHaveBeenCalledTimes(1);
    expect(cache.peek("b")).toMatchObject({ status: "error", error: expect.objectContaining({ code: "validation_error" }) });
  });

  it("asks again after a failure, and a forced read asks whatever is kept", async () => {
    const cache = new ReadCache();
    await expect(cache.fetch("a", () => Promise.reject(new ApiError(404, "not_found", "gone")))).rejects.toBeDefined();
    expect(await cache.fetch("a", () => Promise.resolve(1))).toBe(1);
    expect(await cache.fetch("a", () => Promise.resolve(2))).toBe(1);
    expect(await cache.fetch("a", () => Promise.resolve(2), { force: true })).toBe(2);
  });

  it("updates and invalidates by prefix, telling its listeners; stale answers stay shown until replaced", async () => {
    const cache = new ReadCache();
    await cache.fetch("slots|ann|chat|2027-03", () => Promise.resolve(["09:00", "10:00"]));
    await cache.fetch("slots|ann|chat|first", () => Promise.resolve("2027-03"));
    await cache.fetch("slots|bob|chat|2027-03", () => Promise.resolve(["09:00"]));
    const listener = vi.fn();
    const unsubscribe = cache.subscribe(listener);

    cache.update("slots|ann|chat|", (old) => (Array.isArray(old) ? old.filter((t) => t !== "09:00") : old));
    expect(cache.peek("slots|ann|chat|2027-03")?.data).toEqual(["10:00"]);
    expect(cache.peek("slots|ann|chat|first")?.data).toBe("2027-03");
    expect(cache.peek("slots|bob|chat|2027-03")?.data).toEqual(["09:00"]);

    cache.invalidate("slots|ann|chat|");
    expect(cache.peek("slots|ann|chat|2027-03")).toMatchObject({ stale: true, data: ["10:00"] });
    expect(cache.peek("slots|bob|chat|2027-03")?.stale).toBe(false);
    expect(await cache.fetch("slots|ann|chat|2027-03", () => Promise.resolve(["11:00"]))).toEqual(["11:00"]);
    expect(cache.peek("slots|ann|chat|2027-03")?.stale).toBe(false);
    expect(listener).toHaveBeenCalled();
    unsubscribe();
  });
});
