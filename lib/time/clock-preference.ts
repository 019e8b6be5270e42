// The guest's chosen clock (12- or 24-hour), remembered by the booking page: in the browser's
// storage for its own pages, and in a cookie of the same name so that the server renders the
// guest's other pages (manage, cancel) on that clock from the first paint.

export const CLOCK_KEY = "booking.clock";

/** "12h" → true, "24h" → false, anything else: no choice made. */
export function parseClock(value: string | null | undefined): boolean | undefined {
  return value === "12h" ? true : value === "24h" ? false : undefined;
}

export function clockValue(hour12: boolean): "12h" | "24h" {
  return hour12 ? "12h" : "24h";
}
