"use client";

import { useQuery } from "@tanstack/react-query";
import { LoadError, Loading } from "@/components/dashboard/query-state";
import { AvailabilityForm } from "@/components/dashboard/availability/availability-form";
import { availabilityQuery } from "@/lib/browser/api-client/host";

export function AvailabilityClient() {
  const availability = useQuery(availabilityQuery());
  if (availability.isPending) return <Loading>Loading your availability…</Loading>;
  if (availability.isError) return <LoadError what="your availability" error={availability.error} onRetry={() => void availability.refetch()} />;
  // The form keeps its own draft: a background refetch never overwrites what is being edited.
  return <AvailabilityForm initial={availability.data} />;
}
