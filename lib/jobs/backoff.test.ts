import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, retryDelayMs } from "./backoff";

const HOUR = 3_600_000;

describe("retry backoff", () => {
  it("doubles from one minute and stops growing at eight hours", () => {
    const middle = () => 0.5; // no jitter
    expect([1, 2, 3, 4, 9, 10, 11, 30].map((a) => retryDelayMs(a, middle) / 60_000)).toEqual([1, 2, 4, 8, 256, 480, 480, 480]);
  });

  it("jitters each delay within ±20 %", () => {
    for (const attempt of [1, 5, 11]) {
      const plain = retryDelayMs(attempt, () => 0.5);
      expect(retryDelayMs(attempt, () => 0)).toBe(Math.round(plain * 0.8));
      expect(retryDelayMs(attempt, () => 1)).toBe(Math.round(plain * 1.2));
    }
  });

  it("spreads the attempts over about a day", () => {
    let total = 0;
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) total += retryDelayMs(attempt, () => 0.5);
    expect(total / HOUR).toBeGreaterThan(20);
    expect(total / HOUR).toBeLessThan(30);
    // Even with the jitter at its extremes it stays "about a day".
    let shortest = 0;
    let longest = 0;
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      shortest += retryDelayMs(attempt, () => 0);
      longest += retryDelayMs(attempt, () => 1);
    }
    expect(shortest / HOUR).toBeGreaterThan(18);
    expect(longest / HOUR).toBeLessThan(30);
  });
});
