import { queryOptions } from "@tanstack/react-query";
import { api, dataOf, type Schemas } from "./client";

// The host's insights (decisions §22): the Insights page's counts for a range of days, an event
// type and a team.

export type InsightsDto = Schemas["Insights"];

/** The page's filter: dates (YYYY-MM-DD, the host's zone), an event type, a team. */
export type InsightsFilter = { from: string; to: string; eventTypeId?: string; teamId?: string };

/** The filter as the query string has it: empty values left out, so one view is one cache key. */
export const insightsFilterOf = ({ from, to, eventTypeId, teamId }: InsightsFilter): InsightsFilter => ({
  from,
  to,
  ...(eventTypeId ? { eventTypeId } : {}),
  ...(teamId ? { teamId } : {}),
});

export const insightsKeys = { all: ["me", "insights"] as const };

export function insightsQuery(filter: InsightsFilter) {
  const f = insightsFilterOf(filter);
  return queryOptions({
    queryKey: [...insightsKeys.all, f] as const,
    queryFn: () => dataOf(api.GET("/me/insights", { params: { query: f } })),
  });
}
