"use client";

import { useQueries, useQuery } from "@tanstack/react-query";
import { eventTypesQuery } from "@/lib/browser/api-client/event-types";
import { teamsQuery } from "@/lib/browser/api-client/teams";

// The event types a webhook may be narrowed to (decisions §18): the host's own, and each team's
// ones the host hosts, grouped by team, as the API's check allows them. Teams beyond the first
// page (20) are not offered here; the API takes their ids all the same.

export type EventTypeChoice = { id: string; title: string; hidden: boolean };
export type EventTypeGroup = { key: string; label: string; choices: EventTypeChoice[] };

export type EventTypeChoices = {
  status: "pending" | "error" | "ready";
  groups: EventTypeGroup[];
  /** Every id offered, and its title: what a webhook's list is shown with. */
  titles: ReadonlyMap<string, string>;
};

export function useEventTypeChoices(myUserId: string): EventTypeChoices {
  const own = useQuery(eventTypesQuery({ kind: "me" }));
  const teams = useQuery(teamsQuery(1));
  const teamTypes = useQueries({ queries: (teams.data?.data ?? []).map((t) => eventTypesQuery({ kind: "team", teamId: t.id })) });
  const all = [own, teams, ...teamTypes];
  const status = all.some((q) => q.isError) ? "error" : all.some((q) => q.isPending) ? "pending" : "ready";
  const choice = (e: { id: string; title: string; isActive: boolean }): EventTypeChoice => ({ id: e.id, title: e.title, hidden: !e.isActive });
  const groups: EventTypeGroup[] = [
    { key: "me", label: "Your event types", choices: (own.data ?? []).map(choice) },
    ...(teams.data?.data ?? []).map((t, i) => ({
      key: t.id,
      label: `${t.name} (team)`,
      choices: (teamTypes[i]?.data ?? []).filter((e) => e.hostIds.includes(myUserId)).map(choice),
    })),
  ].filter((g) => g.choices.length > 0);
  const titles = new Map(groups.flatMap((g) => g.choices.map((c) => [c.id, g.key === "me" ? c.title : `${c.title} · ${g.label}`] as const)));
  return { status, groups, titles };
}
