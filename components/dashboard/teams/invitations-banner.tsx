"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { invitationsQuery } from "@/lib/browser/api-client/teams";

/**
 * On the dashboard's home while team invitations wait for the host's answer: who invited them to
 * which team (one), or how many there are, and the way to the Teams page where they answer.
 * Gone once every one is answered, withdrawn or expired. The team's name is text, never a link.
 */
export function InvitationsBanner() {
  const { data } = useQuery(invitationsQuery(1));
  const total = data?.pagination.total ?? 0;
  if (!data || total === 0) return null;
  const first = data.data[0];
  const said =
    total === 1 && first
      ? `${first.invitedBy?.fullName ?? "Someone"} invited you to join ${first.team.name}.`
      : `You have ${total} team invitations waiting for your answer.`;
  return (
    <section aria-labelledby="invitations-banner-heading" className="flex flex-col gap-3 rounded-lg border border-blue-200 bg-blue-50 p-4 text-blue-950 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1">
        <h2 id="invitations-banner-heading" className="font-semibold">
          {total === 1 ? "A team invitation" : "Team invitations"}
        </h2>
        <p className="break-words">{said} Accept or decline on your Teams page.</p>
      </div>
      <Link href="/dashboard/teams" className={`${buttonClass("primary", "sm")} shrink-0 self-start sm:self-center`}>
        {total === 1 ? "See the invitation" : "See the invitations"}
      </Link>
    </section>
  );
}
