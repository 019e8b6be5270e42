// The booking page's first slots requests, started by an inline script in the page's HTML while
// the JavaScript bundles are still on their way, instead of after they have loaded and hydrated:
// the guest's zone, today there and each month's range are worked out exactly as the slot picker
// will (components/booking/slot-picker.tsx), so the picker's first requests find their answers
// already under way. A guess that misses costs a request the picker does not use.

type PrefetchArgs = {
  /** /api/v1/public/{username}/{slug}/slots, encoded. */
  path: string;
  /** How many days ahead the host takes bookings (the picker's windowDays). */
  windowDays: number;
  /** How many months from this one to ask for: the picker searches month by month for the first open one. */
  months: number;
};

declare global {
  interface Window {
    /** Slots answers the inline script asked for, by URL path and query; each taken once. */
    __slotsPrefetch?: Record<string, Promise<Response>>;
    /** Set by the picker's first request: from then on it asks for itself, and nothing more is prefetched. */
    __slotsPrefetchClosed?: boolean;
  }
}

/**
 * Runs in the page before any bundle: self-contained (it is sent as its own source text) and
 * silent on any failure (the picker then asks itself). Not before the first contentful paint: a
 * page's first Intl.DateTimeFormat loads the ICU data (30–100 ms here), which would hold the
 * paint of the times already in the HTML. A frame (requestAnimationFrame) was not enough: the
 * first frame can come before the parser has reached the content (a background-only paint), and
 * the ICU load then ran between it and the paint of the page (bench:page traces, 2026-11-25).
 */
function startSlotsPrefetch({ path, windowDays, months }: PrefetchArgs) {
  const run = () => {
    try {
      if (!window.__slotsPrefetchClosed) ask();
    } catch {
      // The picker asks for itself.
    }
  };
  const ask = () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
    const parts = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(new Date());
    const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
    const today = `${part("year")}-${part("month")}-${part("day")}`;
    const iso = (d: Date) => d.toISOString().slice(0, 10);
    const lastDay = new Date(`${today}T00:00:00Z`);
    // The engine counts the window in the host's zone; a day more covers a guest ahead of it.
    lastDay.setUTCDate(lastDay.getUTCDate() + windowDays + 1);
    const lastDate = iso(lastDay);
    const [y, m] = today.split("-").map(Number) as [number, number];
    const prefetch = (window.__slotsPrefetch ??= {});
    for (let i = 0; i < months; i++) {
      const first = iso(new Date(Date.UTC(y, m - 1 + i, 1)));
      const last = iso(new Date(Date.UTC(y, m + i, 0)));
      if (first > lastDate) break;
      const query = new URLSearchParams({ from: first < today ? today : first, to: last > lastDate ? lastDate : last, timezone: zone });
      const url = `${path}?${query}`;
      prefetch[url] = fetch(url, { headers: { accept: "application/json" }, credentials: "same-origin" });
    }
  };
  const afterFrame = () => requestAnimationFrame(() => setTimeout(run, 0));
  try {
    if (document.visibilityState !== "visible") {
      run(); // a hidden tab paints nothing: at once
    } else if (typeof PerformanceObserver === "function" && PerformanceObserver.supportedEntryTypes?.includes("paint")) {
      // Once the browser has painted the page's first text (buffered: it may have already).
      const observer = new PerformanceObserver((list) => {
        if (list.getEntriesByName("first-contentful-paint").length === 0) return;
        observer.disconnect();
        setTimeout(run, 0);
      });
      observer.observe({ type: "paint", buffered: true });
    } else {
      afterFrame(); // no Paint Timing: after the next frame
    }
  } catch {
    // The picker asks for itself.
  }
}

/** The inline script's source for a booking page. */
export function slotsPrefetchScript(args: PrefetchArgs): string {
  // `<` escaped: the arguments must not be able to close the script element.
  return `(${startSlotsPrefetch.toString()})(${JSON.stringify(args).replace(/</g, "\\u003c")})`;
}

/** The answer the inline script started for `url` (path and query), once; undefined if none. */
export function takePrefetchedSlots(url: string): Promise<Response> | undefined {
  if (typeof window === "undefined") return undefined;
  window.__slotsPrefetchClosed = true;
  const prefetch = window.__slotsPrefetch;
  const response = prefetch?.[url];
  if (response) delete prefetch[url];
  return response;
}
