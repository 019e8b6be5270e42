// GET /api/v1/me/payments – the payments of the host's bookings, newest first, with the totals per currency of the range
import { endpoint, json, route } from "@/lib/http/route";
import { PaymentList, PaymentListQuery } from "@/lib/schemas/payment";
import { listPayments } from "@/lib/services/bookings/payments-list";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/payments", {
  GET: route(
    {
      auth: "host",
      summary: "List the payments of the host's bookings (from/to dates in the host's timezone, status, page, limit ≤ 100), with totals per currency",
      tags: ["Payments"],
      query: PaymentListQuery,
      responses: {
        200: {
          description:
            "Whether payments are set up, one page of payments (newest first, each with its booking and refunds) and the totals per currency " +
            "(paid, refunded, net) of the range whatever the status filter",
          schema: PaymentList,
        },
      },
    },
    async ({ db, host, query }) => json(await listPayments(db, host, query)),
  ),
});
