"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { ApiError } from "@/lib/browser/api-client/fetch-json";

/** Worth asking again: the service was unreachable or failed, not a refusal (4xx, 429 included). */
const transient = (error: unknown) => !(error instanceof ApiError) || error.status === 0 || error.status >= 500;

/** TanStack Query for the client components below it: one client per browser tab. */
export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: (count, error) => count < 1 && transient(error) } } }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
