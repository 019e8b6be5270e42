import { useEffect, useSyncExternalStore } from "react";
import { ApiError } from "./fetch-json";

// The guest pages' reads, in place of TanStack Query there. The booking page has a budget of
// 150 KB of gzipped JavaScript on first load; Next.js and React take about 135 KB of it, the
// calendar and the timezone picker most of the rest, and TanStack Query would add 10 KB. This
// does what those pages need and no more: one request per key at a time, answers kept fresh for
// 30 s, one more try after a transient failure, and updates and invalidation by key prefix. The
// dashboard keeps TanStack Query.

export type CacheEntry<T> = {
  status: "pending" | "success" | "error";
  /** The last answer, kept while a newer one loads (and after a failed refresh). */
  data?: T;
  error?: unknown;
  fetchedAt: number;
  /** Invalidated: shown until the next answer, which the next read fetches. */
  stale: boolean;
};

type Options = { freshMs?: number; retries?: number; now?: () => number };

/** Worth asking again: the service was unreachable or failed, not a refusal (4xx, 429 included). */
export const isTransient = (error: unknown) => !(error instanceof ApiError) || error.status === 0 || error.status >= 500;

export class ReadCache {
  readonly #entries = new Map<string, CacheEntry<unknown>>();
  readonly #inflight = new Map<string, Promise<unknown>>();
  readonly #listeners = new Set<() => void>();
  readonly #freshMs: number;
  readonly #retries: number;
  readonly #now: () => number;

  constructor({ freshMs = 30_000, retries = 1, now = Date.now }: Options = {}) {
    this.#freshMs = freshMs;
    this.#retries = retries;
    this.#now = now;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The entry for `key`: the same object until it changes, as useSyncExternalStore wants. */
  peek<T>(key: string): CacheEntry<T> | undefined {
    return this.#entries.get(key) as CacheEntry<T> | undefined;
  }

  #set(key: string, entry: CacheEntry<unknown>) {
    this.#entries.set(key, entry);
    for (const listener of this.#listeners) listener();
  }

  /**
   * The answer for `key`: a fresh one kept, the request already under way, or a new request.
   * `force` asks again whatever is kept (a "Try again" button).
   */
  fetch<T>(key: string, load: () => Promise<T>, { force = false } = {}): Promise<T> {
    const running = this.#inflight.get(key);
    if (running) return running as Promise<T>;
    const kept = this.peek<T>(key);
    if (!force && kept?.status === "success" && !kept.stale && this.#now() - kept.fetchedAt < this.#freshMs) return Promise.resolve(kept.data as T);
    if (!kept || kept.status === "error") this.#set(key, { status: "pending", data: kept?.data, fetchedAt: kept?.fetchedAt ?? 0, stale: false });
    const attempt = async (): Promise<T> => {
      for (let tries = 0; ; tries++) {
        try {
          return await load();
        } catch (error) {
          if (tries >= this.#retries || !isTransient(error)) throw error;
        }
      }
    };
    const request = attempt().then(
      (data) => {
        this.#inflight.delete(key);
        this.#set(key, { status: "success", data, fetchedAt: this.#now(), stale: false });
        return data;
      },
      (error: unknown) => {
        this.#inflight.delete(key);
        this.#set(key, { status: "error", data: this.peek(key)?.data, error, fetchedAt: this.peek(key)?.fetchedAt ?? 0, stale: false });
        throw error;
      },
    );
    this.#inflight.set(key, request);
    return request;
  }

  /** Changes the kept answers of every key starting with `prefix` at once (e.g. a slot just taken). */
  update(prefix: string, change: (data: unknown) => unknown) {
    for (const [key, entry] of this.#entries) {
      if (key.startsWith(prefix) && entry.data !== undefined) this.#set(key, { ...entry, data: change(entry.data) });
    }
  }

  /** Marks every key starting with `prefix` stale: each is fetched again when next read. */
  invalidate(prefix: string) {
    for (const [key, entry] of this.#entries) {
      if (key.startsWith(prefix)) this.#set(key, { ...entry, stale: true });
    }
  }
}

export type Read<T> = {
  data: T | undefined;
  error: unknown;
  isSuccess: boolean;
  isError: boolean;
  /** Ask again now, whatever is kept. */
  refetch: () => void;
};

const ignore = () => {};

/**
 * Reads `key` through `cache`: fetched (with `load`) when first read under this key and whenever
 * invalidated, unless a fresh answer is kept; `key` null reads nothing. `load` must depend on nothing but what `key` names.
 */
export function useRead<T>(cache: ReadCache, key: string | null, load: () => Promise<T>): Read<T> {
  const entry = useSyncExternalStore(cache.subscribe, () => (key === null ? undefined : cache.peek<T>(key)), () => undefined);
  const stale = entry?.stale ?? false;
  useEffect(() => {
    // The cache decides: a fresh answer is kept, an old, stale or failed one fetched again.
    if (key !== null) cache.fetch(key, load).catch(ignore);
    // `load` is named by `key`: a new function for the same key fetches the same thing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cache, key, stale]);
  return {
    data: entry?.data,
    error: entry?.error,
    isSuccess: entry?.status === "success",
    isError: entry?.status === "error",
    refetch: () => {
      if (key !== null) cache.fetch(key, load, { force: true }).catch(ignore);
    },
  };
}
