import type { Metadata } from "next";
import Link from "next/link";
import { Container } from "@/components/ui/container";
import { getDb } from "@/db";
import { orNotFoundPage } from "@/lib/pages";
import { getPublicHostOrThrow } from "@/lib/services/public-event-types";

// /{username}: the host's public page, listing what a guest can book.

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ username: string }> };

async function load(username: string) {
  return orNotFoundPage(getPublicHostOrThrow(await getDb(), username));
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { host } = await load((await params).username);
  return { title: `Book a time with ${host.fullName}` };
}

export default async function HostPage({ params }: Params) {
  const { username } = await params;
  const { host, eventTypes } = await load(username);
  return (
    <Container>
      <h1 className="text-3xl font-semibold tracking-tight">{host.fullName}</h1>
      {eventTypes.length === 0 ? (
        <p className="text-slate-600">There is nothing to book here yet.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {eventTypes.map((e) => (
            <li key={e.id}>
              <Link
                href={`/${username}/${e.slug}`}
                className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-5 hover:border-slate-400"
              >
                <span className="text-lg font-medium">{e.title}</span>
                <span className="text-sm text-slate-600">
                  {e.durationMinutes} minutes{e.location ? ` · ${e.location}` : ""}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Container>
  );
}
