// GET /api/v1/me/bookings – the host's bookings, by start time, paginated; or the walk of their changes (updatedSince, cursor); or all of them as CSV (format=csv)
import { endpoint, json, route } from "@/lib/http/route";
import { BookingListQuery, BookingPageOrChanges } from "@/lib/schemas/booking";
import { bookingsCsv, csvFileName } from "@/lib/services/bookings/csv";
import { listBookings } from "@/lib/services/bookings/list";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/bookings", {
  GET: route(
    {
      auth: "host",
      summary:
        "List bookings (status, from/to dates in the host's timezone, page, limit ≤ 100), or walk their changes (updatedSince, cursor), " +
        "or export every booking of the filters as CSV (format=csv)",
      tags: ["Bookings"],
      query: BookingListQuery,
      responses: {
        200: {
          description:
            "One page of bookings, ascending by start time, with pagination {page, limit, total}; with updatedSince or cursor, " +
            "one step of the walk of changes, ascending by updatedAt then id, with pagination {limit, nextCursor}; " +
            'with format=csv, text/csv (UTF-8 with a byte order mark, RFC 4180, Content-Disposition: attachment; filename="bookings-<from>-<to>.csv"): ' +
            "a header row, then one row per booking of the filters in the list's order",
          schema: BookingPageOrChanges,
          otherMediaTypes: {
            "text/csv": {
              example:
                "ID,Status,Start (UTC),End (UTC),Start (Europe/Berlin),End (Europe/Berlin),Event type,Guest name,Guest email,Answers,Team,Hosts,Cancelled by,No-show\r\n" +
                'bkg_1,confirmed,2027-03-15 13:00,2027-03-15 13:30,2027-03-15 14:00,2027-03-15 14:30,Intro call,Grace Guest,grace@example.com,"Company: Acme\nTopic: Pricing",,Ada Host,,no\r\n',
            },
          },
        },
      },
    },
    async ({ db, host, query }) => {
      if (query.format !== "csv") return json(await listBookings(db, host, query));
      return new Response(bookingsCsv(db, host, query), {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${csvFileName(query)}"`,
          "cache-control": "private, no-store",
        },
      });
    },
  ),
});
