import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { Container } from "@/components/ui/container";
import { currentHost } from "@/lib/dashboard/current-host";

export const dynamic = "force-dynamic";

const POINTS = [
  { title: "One link, no back-and-forth", text: "Guests see your free times in their own timezone and book in a few taps, no account needed." },
  { title: "Never double-booked", text: "Your Google, Microsoft or iCloud calendar counts as busy, and two guests can never take the same time." },
  { title: "Everyone stays informed", text: "Calendar invitations by email, bookings written to your own calendar, webhooks for your own tools." },
];

// The front door (decisions §13): what the product is, and the way in — sign up or log in, or
// straight to the dashboard for a host who is signed in already.
export default async function Home() {
  const host = await currentHost();
  return (
    <Container>
      <div className="flex flex-col gap-4">
        <p className="text-sm font-semibold tracking-wide text-blue-700 uppercase">Booking</p>
        <h1 className="text-4xl font-semibold tracking-tight">Scheduling without the back-and-forth</h1>
        <p className="text-lg text-slate-600">
          Publish your availability, share a link, and let guests book a time that suits both of you — in their own
          timezone, with no account and no double bookings.
        </p>
        <div className="flex flex-wrap items-center gap-3 pt-2">
          {host ? (
            <Link href="/dashboard" className={buttonClass("primary")}>
              Go to your dashboard
            </Link>
          ) : (
            <>
              <Link href="/register" className={buttonClass("primary")}>
                Sign up free
              </Link>
              <Link href="/login" className={buttonClass("secondary")}>
                Log in
              </Link>
            </>
          )}
        </div>
        {host && <p className="text-sm text-slate-600">Signed in as {host.fullName}.</p>}
      </div>
      <ul className="grid gap-4 sm:grid-cols-3">
        {POINTS.map((p) => (
          <li key={p.title} className="rounded-lg border border-slate-200 bg-white p-4">
            <h2 className="font-semibold">{p.title}</h2>
            <p className="mt-1 text-sm text-slate-600">{p.text}</p>
          </li>
        ))}
      </ul>
      {/* slate-500 on the code's slate-200 was 3.9:1, below the 4.5:1 small text needs (axe). */}
      <p className="text-sm text-slate-600">
        Developers: the API lives under <code className="rounded bg-slate-100 px-1 text-slate-800">/api/v1</code>; its OpenAPI document is at{" "}
        <a className="text-blue-700 underline" href="/api/v1/openapi.json">
          /api/v1/openapi.json
        </a>
        .
      </p>
    </Container>
  );
}
