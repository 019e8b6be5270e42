"use client";

import { ErrorPanel } from "@/components/ui/error-panel";

// Any page that fails to render shows this inside the root layout, never Next's bare
// "Application error".

export default function PageError({ error, retry }: { error: unknown; reset: () => void; retry: () => void }) {
  return <ErrorPanel error={error} retry={retry} />;
}
