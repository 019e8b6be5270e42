import "server-only";
// Retries: exponential from one minute, doubling, capped at eight hours, each delay jittered by
// ±20 % so jobs that failed together (an endpoint down, the mail server restarting) do not all
// come back in the same second. Twelve attempts span about a day:
// 1 + 2 + 4 + … + 256 minutes (8.5 h) then 8 h twice ≈ 24.5 h after the first attempt.

export const MAX_ATTEMPTS = 12;

const BASE_MS = 60_000;
const CAP_MS = 8 * 3_600_000;
const JITTER = 0.2;

/** The delay before attempt `attempt + 1`, after attempt `attempt` (1-based) failed. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const plain = Math.min(CAP_MS, BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(plain * (1 - JITTER + 2 * JITTER * random()));
}
