"use client";

import { useQueries, useQuery } from "@tanstack/react-query";
import { eventTypesQuery } from "@/lib/browser/api-client/event-types";

// The event types a host filters by (the Bookings and Insights pages): their own, then each
// team's, as the options of one <select>.

/** Event types to filter by, in groups: the host's own, then each team's. */
export type EventTypeGroup = { label: string; choices: { id: string; title: string }[] };

/** The host's event types and each team's, for a filter; one group needs no heading. */
export function useEventTypeGroups(teams: { id: string; name: string }[]): EventTypeGroup[] {
  const own = useQuery(eventTypesQuery({ kind: "me" }));
  const teamTypes = useQueries({ queries: teams.map((t) => eventTypesQuery({ kind: "team", teamId: t.id })) });
  const groups: EventTypeGroup[] = [{ label: "Your event types", choices: (own.data ?? []).map((e) => ({ id: e.id, title: e.title })) }];
  teams.forEach((team, i) => {
    const data = teamTypes[i]?.data;
    if (data?.length) groups.push({ label: `Team: ${team.name}`, choices: data.map((e) => ({ id: e.id, title: e.title })) });
  });
  return groups;
}

/** The groups as <option>s: plain with one group, under an <optgroup> each with several. */
export function EventTypeOptions({ groups }: { groups: EventTypeGroup[] }) {
  const options = (choices: EventTypeGroup["choices"]) =>
    choices.map((c) => (
      <option key={c.id} value={c.id}>
        {c.title}
      </option>
    ));
  if (groups.length === 1) return options(groups[0]!.choices);
  return groups.map((g) => (
    <optgroup key={g.label} label={g.label}>
      {options(g.choices)}
    </optgroup>
  ));
}
