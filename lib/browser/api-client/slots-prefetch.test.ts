import { afterEach, describe, expect, it, vi } from "vitest";
import { addMonths, firstOfMonth, lastOfMonth, monthOf } from "@/lib/time/month-grid";
import { addDays, dateInZone } from "@/lib/time/format";
import { localTimeZone } from "@/lib/time/zones";
import { slotsPrefetchScript, takePrefetchedSlots } from "./slots-prefetch";

// The inline script must ask for exactly the URLs the slot picker will (its rangeOf and fetchSlots):
// worked out here the picker's way, with the library functions it uses.
function pickerUrls(path: string, windowDays: number, months: number, now: number): string[] {
  const zone = localTimeZone();
  const today = dateInZone(now, zone);
  const lastDate = addDays(today, windowDays + 1);
  const urls: string[] = [];
  for (let m = monthOf(today), i = 0; m <= monthOf(lastDate) && i < months; m = addMonths(m, 1), i++) {
    const range = { from: firstOfMonth(m) < today ? today : firstOfMonth(m), to: lastOfMonth(m) > lastDate ? lastDate : lastOfMonth(m), timezone: zone };
    urls.push(`${path}?${new URLSearchParams(range)}`);
  }
  return urls;
}

function runScript(args: { path: string; windowDays: number; months: number }, fakeWindow: Pick<Window, "__slotsPrefetch" | "__slotsPrefetchClosed"> = {}) {
  const fetched: string[] = [];
  vi.stubGlobal("window", fakeWindow);
  // A hidden page asks at once (a visible one after its first paint).
  vi.stubGlobal("document", { visibilityState: "hidden" });
  vi.stubGlobal("fetch", (url: string) => {
    fetched.push(url);
    return Promise.resolve(new Response("{}"));
  });
  new Function(slotsPrefetchScript(args))();
  return { fetched, prefetch: fakeWindow.__slotsPrefetch ?? {} };
}

describe("the booking page's inline slots prefetch", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it.each([
    ["mid-month, one month", "2026-11-12T10:00:00Z", 60, 1],
    ["mid-month, three months", "2026-11-12T10:00:00Z", 60, 3],
    ["the window ends this month", "2026-11-02T10:00:00Z", 5, 3],
    ["the window ends next month", "2026-11-28T10:00:00Z", 10, 3],
    ["across the year", "2026-12-30T23:00:00Z", 60, 3],
  ])("%s: the picker's own URLs", (_, at, windowDays, months) => {
    vi.useFakeTimers({ now: new Date(at), toFake: ["Date"] });
    const path = "/api/v1/public/ana/intro%20call/slots";
    const { fetched, prefetch } = runScript({ path, windowDays, months });
    expect(fetched).toEqual(pickerUrls(path, windowDays, months, Date.parse(at)));
    expect(Object.keys(prefetch)).toEqual(fetched);
  });

  it("hands each answer out once", async () => {
    const { fetched, prefetch } = runScript({ path: "/api/v1/public/ana/intro/slots", windowDays: 30, months: 1 });
    vi.stubGlobal("window", { __slotsPrefetch: prefetch });
    expect(takePrefetchedSlots(fetched[0]!)).toBeInstanceOf(Promise);
    expect(takePrefetchedSlots(fetched[0]!)).toBeUndefined();
    expect(takePrefetchedSlots("/api/v1/public/ana/intro/slots?from=2000-01-01")).toBeUndefined();
  });

  it("asks nothing once the picker has asked for itself", () => {
    expect(runScript({ path: "/api/v1/public/ana/intro/slots", windowDays: 30, months: 2 }, { __slotsPrefetchClosed: true }).fetched).toEqual([]);
  });

  it("waits for the next frame in a visible page without Paint Timing", () => {
    vi.stubGlobal("PerformanceObserver", undefined);
    const frames: (() => void)[] = [];
    const fetched: string[] = [];
    vi.stubGlobal("window", {});
    vi.stubGlobal("document", { visibilityState: "visible" });
    vi.stubGlobal("requestAnimationFrame", (f: () => void) => frames.push(f));
    vi.stubGlobal("fetch", (url: string) => (fetched.push(url), Promise.resolve(new Response("{}"))));
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    new Function(slotsPrefetchScript({ path: "/api/v1/public/ana/intro/slots", windowDays: 30, months: 1 }))();
    expect(fetched).toEqual([]);
    frames.forEach((f) => f());
    vi.runAllTimers();
    expect(fetched).toHaveLength(1);
  });

  it("waits for the first contentful paint where the browser reports it, not the first frame", () => {
    let observed: ((list: { getEntriesByName: (name: string) => unknown[] }) => void) | undefined;
    let disconnected = false;
    class FakeObserver {
      static supportedEntryTypes = ["paint", "element"];
      constructor(callback: typeof observed) {
        observed = callback;
      }
      observe() {}
      disconnect() {
        disconnected = true;
      }
    }
    const fetched: string[] = [];
    vi.stubGlobal("window", {});
    vi.stubGlobal("document", { visibilityState: "visible" });
    vi.stubGlobal("PerformanceObserver", FakeObserver);
    vi.stubGlobal("requestAnimationFrame", () => {
      throw new Error("a frame is not the paint of the content");
    });
    vi.stubGlobal("fetch", (url: string) => (fetched.push(url), Promise.resolve(new Response("{}"))));
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    new Function(slotsPrefetchScript({ path: "/api/v1/public/ana/intro/slots", windowDays: 30, months: 1 }))();
    // A background-only first paint: not yet.
    observed!({ getEntriesByName: (name) => (name === "first-paint" ? [{}] : []) });
    vi.runAllTimers();
    expect(fetched).toEqual([]);
    observed!({ getEntriesByName: (name) => (name === "first-contentful-paint" ? [{}] : []) });
    expect(fetched).toEqual([]); // not inside the observer's callback either: a task of its own
    vi.runAllTimers();
    expect(fetched).toHaveLength(1);
    expect(disconnected).toBe(true);
  });

  it("cannot be closed by what it carries", () => {
    expect(slotsPrefetchScript({ path: "/api/v1/public/a/</script><script>alert(1)//", windowDays: 1, months: 1 })).not.toContain("</script>");
  });
});
