// Lists tomorrow's bookings with an API key: BOOKING_URL=https://… BOOKING_API_KEY=bk_… npx tsx examples/tomorrows-bookings.mts
import createClient from "openapi-fetch";
import type { paths } from "../lib/browser/api-client/openapi";

const api = createClient<paths>({ baseUrl: process.env.BOOKING_URL, headers: { authorization: `Bearer ${process.env.BOOKING_API_KEY}` } });
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10); // a date in the host's time zone
const { data, error, response } = await api.GET("/api/v1/me/bookings", { params: { query: { from: tomorrow, to: tomorrow, status: "confirmed,pending" } } });
if (!data) throw new Error(`${response.status}: ${error?.message}`);
for (const b of data.data) console.log(b.startTime, b.eventType.title, b.guestName);
