import "server-only";
import type { z } from "zod";
import type { Db } from "@/db";
import { getConfig } from "@/lib/config";
import { localeOfRequest, type Locale } from "@/lib/i18n/locales";
import { CreateBookingBody, CreatedBooking, IDEMPOTENCY_KEY_HEADER, IdempotencyKeyHeader } from "@/lib/schemas/booking";
import type { CreateBookingResult } from "@/lib/services/bookings/create";
import { parseWith } from "./parse";
import { json } from "./respond";
import { route, type ErrorSpec, type RouteHandler } from "./route";

export type BookingRequestArgs = { idempotencyKey: string; input: z.output<typeof CreateBookingBody>; language: Locale; now: number };

/**
 * POST …/bookings, a guest booking a slot, the same for a host's event type and a team's
 * (decisions §8, §15): the Idempotency-Key header, the guest's language, the per-address limit
 * before the body is read, and the answer's replay header. `book` is the verb. The answer carries
 * the requester's own per-address X-RateLimit-* (route()), never the guest email's: anyone may
 * type any address, and must not learn how many bookings it made (guest-limit.ts).
 */
export function bookingPost<P extends z.ZodType>(
  spec: { summary: string; params: P; errors?: ErrorSpec[] },
  book: (db: Db, params: z.output<P>, args: BookingRequestArgs) => Promise<CreateBookingResult>,
): RouteHandler {
  return route(
    {
      auth: "none",
      summary: `${spec.summary} (5 bookings per hour per guest email; 30 requests per 10 minutes per client address by default, LIMIT_BOOKINGS_PER_ADDRESS)`,
      tags: ["Public booking"],
      params: spec.params,
      headers: [IDEMPOTENCY_KEY_HEADER],
      body: CreateBookingBody,
      responses: { 201: { description: "Booked; the cancelUrl carries the guest's cancel token", schema: CreatedBooking } },
      errors: [
        404,
        ...(spec.errors ?? []),
        409,
        422,
        {
          status: 429,
          description:
            "Too many requests from this client address (X-RateLimit-* and Retry-After of that limit), or the guest email has 5 bookings made in the last hour that still stand (cancelled ones do not count). The email's count is never sent: that refusal's Retry-After is the whole hour, and every answer's X-RateLimit-* headers are the client address's own.",
        },
      ],
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
      const result = await book(db, params as z.output<P>, { idempotencyKey, input: body, language, now: Date.now() });
      return json(result.booking, { status: 201, headers: result.replayed ? { "Idempotent-Replayed": "true" } : {} });
    },
  );
}
