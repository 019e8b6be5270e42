"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

/** A 401 from the API means the session ended: back to /login, and here again afterwards. */
function toLoginOn401(error: unknown) {
  if ((error as { status?: number } | null)?.status !== 401) return;
  const back = `${window.location.pathname}${window.location.search}`;
  // A full load on purpose: nothing of the ended session's client state may survive it.
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  window.location.assign(`/login?callbackUrl=${encodeURIComponent(back)}`);
}

/** TanStack Query for the dashboard: one client per tab; an expired session ends cleanly. */
export function DashboardProviders({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: toLoginOn401 }),
        mutationCache: new MutationCache({ onError: toLoginOn401 }),
        defaultOptions: {
          queries: { staleTime: 15_000, retry: (count, error) => (error as { status?: number }).status !== 401 && count < 1 },
        },
      }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
