import { Container } from "@/components/ui/container";

export default function Home() {
  return (
    <Container>
      <h1 className="text-4xl font-semibold tracking-tight">Scheduling without the back-and-forth</h1>
      <p className="text-lg text-slate-600">
        Publish your availability, share a link, and let guests book a time that suits both of you — in their own
        timezone, with no account and no double bookings.
      </p>
      <p className="text-sm text-slate-500">
        Developers: the API lives under <code className="rounded bg-slate-200 px-1">/api/v1</code>; its OpenAPI document is at{" "}
        <a className="text-blue-600 underline" href="/api/v1/openapi.json">
          /api/v1/openapi.json
        </a>
        .
      </p>
    </Container>
  );
}
