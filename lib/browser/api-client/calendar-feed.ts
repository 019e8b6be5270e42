import { api, dataOf } from "./client";

// The host's bookings as a calendar feed (decisions §14): each call makes a new secret address,
// and the one before stops working.

export const createCalendarFeed = () => dataOf(api.POST("/me/calendar-feed"));
