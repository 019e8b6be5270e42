"use client";

import "./globals.css";
import { ErrorPanel } from "@/components/ui/error-panel";

// When the root layout itself fails, this replaces it: its own <html> and <body>, and the
// global styles imported here, since the layout that loads them is what failed.

export default function GlobalError({ error, retry }: { error: unknown; reset: () => void; retry: () => void }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <title>Something went wrong</title>
        <ErrorPanel error={error} retry={retry} />
      </body>
    </html>
  );
}
