import { fetchJson } from "./fetch-json";

// The host's bookings as a calendar feed (decisions §14): each call makes a new secret address,
// and the one before stops working.

export const createCalendarFeed = () => fetchJson<{ url: string }>("/me/calendar-feed", { method: "POST" });
