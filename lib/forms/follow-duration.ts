import { starterWords } from "@/lib/onboarding";

// The starter event type says its length in its link, title and description ("/30min",
// "30 minute meeting", "A 30-minute conversation…"). A host who changes the length would keep
// words that are no longer true; the editor offers to change them, never changes them by itself,
// since the link may already be shared.

type Words = { slug: string; title: string; description: string };

/** What would follow a new length: only the words still generated for the saved length. */
export type DurationFollowUp = Partial<Words> & { minutes: number };

/** The length a word was generated for ("30min" → 30), or null when the host wrote it. */
function generatedFor(key: keyof Words, value: string): number | null {
  const n = /\d+/.exec(value.trim())?.[0];
  return n !== undefined && starterWords(Number(n))[key] === value.trim() ? Number(n) : null;
}

/**
 * The words to offer for `durationMinutes` (as typed), once it differs from `savedMinutes`: those
 * still generated for another length (the saved one, or an older one a host kept when they
 * changed the length before); null when there is nothing to offer.
 */
export function followDuration(values: Words & { durationMinutes: string }, savedMinutes: number): DurationFollowUp | null {
  const minutes = Number(values.durationMinutes.trim());
  if (!/^\d+$/.test(values.durationMinutes.trim()) || minutes < 5 || minutes > 720 || minutes === savedMinutes) return null;
  const next = starterWords(minutes);
  const offer: DurationFollowUp = { minutes };
  for (const key of ["slug", "title", "description"] as const) {
    const was = generatedFor(key, values[key]);
    if (was !== null && was !== minutes) offer[key] = next[key];
  }
  return Object.keys(offer).length > 1 ? offer : null;
}

/** "the link to /45min, the title and the description": what the offer changes, in words. */
export function followUpParts(offer: DurationFollowUp): string {
  const parts = [
    ...(offer.slug ? [`the link to /${offer.slug}`] : []),
    ...(offer.title ? ["the title"] : []),
    ...(offer.description ? ["the description"] : []),
  ];
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}
