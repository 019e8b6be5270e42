// POST /api/v1/public/{username}/{eventSlug}/bookings – a guest books a slot
import { getConfig } from "@/lib/config";
import { localeOfRequest } from "@/lib/i18n/locales";
import { endpoint, json, route } from "@/lib/http/route";
import { parseWith } from "@/lib/http/parse";
import { rateLimitHeaders } from "@/lib/rate-limit";
import { CreateBookingBody, CreatedBooking, IDEMPOTENCY_KEY_HEADER, IdempotencyKeyHeader, PublicEventParams } from "@/lib/schemas/booking";
import { createBooking } from "@/lib/services/bookings/create";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/public/{username}/{eventSlug}/bookings", {
  POST: route(
    {
      auth: "none",
      summary: "Book a slot (5 bookings per hour per guest email; 30 requests per 10 minutes per client address by default, LIMIT_BOOKINGS_PER_ADDRESS)",
      tags: ["Public booking"],
      params: PublicEventParams,
      headers: [IDEMPOTENCY_KEY_HEADER],
      body: CreateBookingBody,
      responses: { 201: { description: "Booked; the cancelUrl carries the guest's cancel token", schema: CreatedBooking } },
      errors: [404, 409, 422, 429],
      // A flood from one address (two days of a host's calendar in seconds, each booking mailing
      // an address of its choice) is stopped before it reads the body.
      ipLimit: () => {
        const rule = getConfig().addressLimits.bookings;
        return rule && { name: "bookings", ...rule };
      },
    },
    async ({ db, req, params, body }) => {
      const { "Idempotency-Key": idempotencyKey } = parseWith(IdempotencyKeyHeader, { "Idempotency-Key": req.headers.get("idempotency-key") ?? undefined }, "Idempotency-Key header");
      // Not named in the body: the guest's language as their request says it (cookie, Accept-Language).
      const language = body.guestLanguage ?? localeOfRequest(req.headers);
      const result = await createBooking(db, { username: params.username, slug: params.eventSlug, idempotencyKey, input: body, language, now: Date.now() });
      const headers: Record<string, string> = result.guestLimit ? rateLimitHeaders(result.guestLimit) : {};
      if (result.replayed) headers["Idempotent-Replayed"] = "true";
      return json(result.booking, { status: 201, headers });
    },
  ),
});
