"use client";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

/** While a dashboard page's data loads: words, never a blank. */
export function Loading({ children }: { children: string }) {
  return (
    <p role="status" className="flex items-center gap-2 text-slate-600">
      <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-slate-300 border-t-blue-600" />
      {children}
    </p>
  );
}

/** A load that failed: what happened, and a way to try again. */
export function LoadError({ what, error, onRetry }: { what: string; error: Error; onRetry: () => void }) {
  return (
    <Alert tone="error" className="flex flex-col items-start gap-3">
      <p>
        We could not load {what}. {error.message}
      </p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </Alert>
  );
}
