// The ceiling for booking creation (bench/bookings.ts): Next.js alone at the real route's path,
// no database. It reads the request's JSON body, as the real route does, and answers 201 with a
// pre-serialised body the size of the real answer. What Next.js itself costs per booking request.
export const dynamic = "force-dynamic";

const body = JSON.stringify({
  id: "bkg_0123456789abcdefghijklmnop",
  status: "confirmed",
  startTime: "2027-03-15T09:00:00Z",
  endTime: "2027-03-15T09:30:00Z",
  guestName: "Guest 1234",
  guestEmail: "guest-1234@example.com",
  confirmationMessage: "Call with Bench Host is confirmed for Monday, March 15, 2027, 9:00 – 9:30 AM (Europe/Berlin).",
  cancelUrl: `http://127.0.0.1:3000/cancel?token=${"x".repeat(110)}`,
});

export async function POST(request) {
  const input = await request.json();
  if (typeof input?.startTime !== "string") return Response.json({ error: "validation_error" }, { status: 400 });
  return new Response(body, { status: 201, headers: { "content-type": "application/json; charset=utf-8" } });
}
