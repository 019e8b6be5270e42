"use client";

import { useState } from "react";
import { Button } from "./button";

/** How long "Copied" stays before the button reads its label again (and `onCopied` runs). */
const SAID_MS = 1500;

/**
 * Copies `text`; says so for a moment (announced politely to screen readers). `onCopied` runs
 * once the person has seen "Copied": a caller that hides the button then (the onboarding step
 * it ticks) must not remove it while the write is still under way or before it has said so.
 */
export function CopyButton({ text, label = "Copy link", onCopied }: { text: string; label?: string; onCopied?: () => void }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  async function copy() {
    let ok = true;
    try {
      await navigator.clipboard.writeText(text);
      setCopied("yes");
    } catch {
      ok = false;
      setCopied("failed");
    }
    // A state change after the button has gone is a no-op, so the timer need not be cleared.
    setTimeout(() => {
      setCopied(null);
      if (ok) onCopied?.();
    }, SAID_MS);
  }
  return (
    <Button variant="secondary" size="sm" onClick={copy} aria-label={`${label}: ${text}`}>
      <span aria-live="polite">{copied === "yes" ? "Copied" : copied === "failed" ? "Copy failed" : label}</span>
    </Button>
  );
}
