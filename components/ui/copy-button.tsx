"use client";

import { useState } from "react";
import { Button } from "./button";

/** Copies `text`; says so for a moment (announced politely to screen readers). */
export function CopyButton({ text, label = "Copy link" }: { text: string; label?: string }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
    setTimeout(() => setCopied(null), 2000);
  }
  return (
    <Button variant="secondary" size="sm" onClick={copy} aria-label={`${label}: ${text}`}>
      <span aria-live="polite">{copied === "yes" ? "Copied" : copied === "failed" ? "Copy failed" : label}</span>
    </Button>
  );
}
