import { HydrationBoundary } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { requireHost } from "@/lib/dashboard/current-host";
import { prefetchFor, type Resource } from "@/lib/dashboard/prefetch";

/** Renders `children` with the host's `resources` already in TanStack Query's cache. */
export async function Prefetched({ resources, children }: { resources: Resource[]; children: ReactNode }) {
  const host = await requireHost();
  return <HydrationBoundary state={await prefetchFor(host, resources)}>{children}</HydrationBoundary>;
}
